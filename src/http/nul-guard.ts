// PostgreSQL cannot store the NUL character in text, and no field of this API has a use for it. Rather
// than teach every schema, one hook turns it away before validation: 400 in a path parameter, 422 naming
// the field in a query parameter or JSON body, on both databases alike.
import type { FastifyInstance } from 'fastify';
import { BadRequest, ValidationFailed, type FieldError } from './errors.js';

function findNul(value: unknown, path: string, found: FieldError[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ field: path || 'Body', message: `${path || 'Body'} must not contain the NUL character` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findNul(item, `${path}[${i}]`, found));
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      findNul(key, path ? `${path}.${key}` : key, found);
      findNul(item, path ? `${path}.${key}` : key, found);
    }
  }
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const inParams: FieldError[] = [];
    findNul(request.params, '', inParams);
    if (inParams.length > 0) throw new BadRequest(`Invalid path parameter: ${inParams[0]!.message}`);
    const found: FieldError[] = [];
    findNul(request.query, '', found);
    findNul(request.body, '', found);
    if (found.length > 0) throw new ValidationFailed(found);
  });
}

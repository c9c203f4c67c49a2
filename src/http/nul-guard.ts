// One hook turns away, before validation, what no field of this API can take:
// - the NUL character (PostgreSQL cannot store it in text): 400 in a path parameter, 422 naming the field
//   in a query parameter or JSON body, on both databases alike;
// - JSON bodies nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES values (400). No
//   request of this API comes near either (a usage batch of 1,000 entries is about 6,000 values, three
//   levels deep), but without a bound one 1 MiB body of brackets overflows the stack of any recursive
//   code after it (JSON.stringify of an idempotency fingerprint, validation), and one of 300,000 empty
//   objects makes validation list a million errors.
// The walk is iterative, with an explicit stack, so that the guard itself never recurses, whatever it is
// sent; it stops at the first value past a bound.
import type { FastifyInstance } from 'fastify';
import { BadRequest, ValidationFailed, type FieldError } from './errors.js';

export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_VALUES = 20_000;
/** A body with NUL characters in every string is reported by its first ones, not all of them. */
const MAX_NUL_FINDINGS = 20;

/** A value of the walk, with how to name it: its parent and its key or index there. */
interface Visit {
  value: unknown;
  parent: Visit | undefined;
  segment: string | number | undefined;
  depth: number;
}

/** The field's name the way the API names fields: Customer.Email, Entries[3].Usage. */
function pathOf(visit: Visit | undefined): string {
  const segments: (string | number)[] = [];
  for (let at = visit; at?.segment !== undefined; at = at.parent) segments.push(at.segment);
  return segments
    .reverse()
    .reduce<string>((path, segment) => (typeof segment === 'number' ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

function nulFinding(visit: Visit): FieldError {
  const field = pathOf(visit) || 'Body';
  return { field, message: `${field} must not contain the NUL character` };
}

export type Inspection = { kind: 'ok' } | { kind: 'nul'; found: FieldError[] } | { kind: 'too-deep' | 'too-many' };

/** Walks a parsed request part in document order, iteratively; `limited` applies the JSON bounds. */
export function inspect(root: unknown, limited: boolean): Inspection {
  const found: FieldError[] = [];
  const stack: Visit[] = [{ value: root, parent: undefined, segment: undefined, depth: 0 }];
  let values = 0;
  while (stack.length > 0 && found.length < MAX_NUL_FINDINGS) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (limited && ++values > MAX_JSON_VALUES) return { kind: 'too-many' };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(nulFinding(visit));
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (limited && depth >= MAX_JSON_DEPTH) return { kind: 'too-deep' };
    const size = Array.isArray(value) ? value.length : Object.keys(value).length;
    if (limited && values + stack.length + size > MAX_JSON_VALUES) return { kind: 'too-many' };
    const children: Visit[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => children.push({ value: item, parent: visit, segment: index, depth: depth + 1 }));
    } else {
      for (const [key, item] of Object.entries(value)) {
        const child: Visit = { value: item, parent: visit, segment: key, depth: depth + 1 };
        if (key.includes('\u0000')) found.push(nulFinding(child));
        children.push(child);
      }
    }
    // Pushed in reverse, so that the first child is walked first and findings come in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found.length > 0 ? { kind: 'nul', found } : { kind: 'ok' };
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const params = inspect(request.params, false);
    if (params.kind === 'nul') throw new BadRequest(`Invalid path parameter: ${params.found[0]!.message}`);
    // A JSON body is bounded; an upload's bytes (a Buffer) are not walked at all.
    const body = inspect(request.body, true);
    if (body.kind === 'too-deep') throw new BadRequest(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (body.kind === 'too-many') throw new BadRequest(`The JSON body holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values`);
    const query = inspect(request.query, false);
    const found = [...(query.kind === 'nul' ? query.found : []), ...(body.kind === 'nul' ? body.found : [])];
    if (found.length > 0) throw new ValidationFailed(found);
  });
}

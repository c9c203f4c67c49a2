import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { problems } from './schemas.js';
import { sendUnavailable } from './problem.js';

const Status = Type.Object({ status: Type.String() });

const readOnly = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '25006' || (typeof code === 'string' && code.startsWith('SQLITE_READONLY'));
};

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    schema: { tags: ['Health'], summary: 'The process is up', security: [], response: { 200: Status } },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    schema: {
      tags: ['Health'],
      summary: 'The database answers and takes writes',
      description:
        'A write statement that changes nothing: 503 when the database does not answer, or answers read-only (a standby, a read-only file).',
      security: [],
      response: { 200: Status, ...problems(503) },
    },
    handler: async (request, reply) => {
      try {
        // Refused like any write by a read-only database, yet it writes nothing and takes no row lock.
        await sql`UPDATE schema_migrations SET name = name WHERE 1 = 0`.execute(app.db.kysely);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        return sendUnavailable(reply, readOnly(error) ? 'The database refuses writes (read-only)' : 'The database does not answer');
      }
    },
  });
};

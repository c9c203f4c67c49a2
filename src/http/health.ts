import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { probeWrite } from '../db/migrate.js';
import { problems } from './schemas.js';
import { sendUnavailable } from './problem.js';
import { ANSWERS_UNDER_PRESSURE } from './overload.js';

const Status = Type.Object({ status: Type.String() });

const readOnly = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '25006' || (typeof code === 'string' && code.startsWith('SQLITE_READONLY'));
};

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    config: ANSWERS_UNDER_PRESSURE,
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
        await probeWrite(app.db);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        return sendUnavailable(reply, readOnly(error) ? 'The database refuses writes (read-only)' : 'The database does not answer');
      }
    },
  });
};

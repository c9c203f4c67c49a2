import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { problems } from './schemas.js';
import { sendUnavailable } from './problem.js';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    schema: { tags: ['Health'], summary: 'The process is up', security: [], response: { 200: Status } },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    schema: { tags: ['Health'], summary: 'The database answers', security: [], response: { 200: Status, ...problems(503) } },
    handler: async (request, reply) => {
      try {
        await sql`SELECT 1`.execute(app.db.kysely);
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'database not ready');
        return sendUnavailable(reply, 'The database does not answer');
      }
    },
  });
};

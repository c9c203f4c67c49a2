// The HTTP side of idempotency: read the header, run the write once, send (or replay) its response.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db, Tx } from '../db/connection.js';
import { runIdempotently, type WriteResult } from './service.js';

/** Documents the header on routes that honour it; its length is checked by runIdempotently. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Makes the request safe to retry: a repeat within 24 hours returns the first response (1 to 255 characters)' }),
  ),
});

export async function sendIdempotently(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  write: (tx: Tx) => Promise<WriteResult>,
  /** Lets the write share a transaction with the others of this group (Db.writeGrouped). */
  group?: string,
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key'];
  const { result, replayed } = await runIdempotently(
    db,
    {
      operatorId: request.caller.operatorId,
      key: Array.isArray(header) ? header.join(',') : header,
      fingerprint: [request.method, request.routeOptions.url, request.params, request.body ?? null],
      group,
    },
    write,
  );
  if (replayed) reply.header('Idempotent-Replayed', 'true');
  if (result.location) reply.header('Location', result.location);
  return reply.code(result.statusCode).send(result.body);
}

// The HTTP side of idempotency: read the header, run the write once, send (or replay) its response.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db, Tx } from '../db/connection.js';
import { holderOf, runIdempotently, type WriteResult } from './service.js';

/** Documents the header on routes that honour it; its length is checked by runIdempotently. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the request safe to retry: a repeat with the same body within 24 hours returns the first response (1 to 255 characters). ' +
        "A key counts for its holder (an ota key's marketplace, so a rotated key of the same marketplace replays; otherwise the API key) on this route only.",
    }),
  ),
});

/** The header as one string (a repeated header is joined, as Node joins it for display). */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return Array.isArray(header) ? header.join(',') : header;
}

/** The route's namespace in idempotency records: its method and pattern. */
export const routeOf = (request: FastifyRequest): string => `${request.method} ${request.routeOptions.url}`;

export async function sendIdempotently(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  write: (tx: Tx) => Promise<WriteResult>,
  /** Lets the write share a transaction with the others of this group (Db.writeGrouped). */
  group?: string,
): Promise<FastifyReply> {
  const { result, replayed } = await runIdempotently(
    db,
    request.server.instanceKeys,
    {
      operatorId: request.caller.operatorId,
      holder: holderOf(request.caller),
      route: routeOf(request),
      key: idempotencyKeyOf(request),
      fingerprint: [request.params, request.body ?? null],
      group,
    },
    write,
  );
  return sendWriteResult(reply, { result, replayed });
}

/**
 * Sends a write's answer. A replay sends the first answer's body as it was stored, not serialised again:
 * the route's answer schema may have changed since (a field added), and the first answer is what a
 * replay promises.
 */
export function sendWriteResult(reply: FastifyReply, { result, replayed }: { result: WriteResult; replayed: boolean }): FastifyReply {
  if (replayed) reply.header('Idempotent-Replayed', 'true');
  if (result.location) reply.header('Location', result.location);
  reply.code(result.statusCode);
  if (replayed && result.text !== undefined) return reply.type('application/json; charset=utf-8').send(result.text);
  return reply.send(result.body);
}

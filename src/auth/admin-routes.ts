import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../http/schemas.js';
import { ApiKey, CreatedApiKey, CreateKeyBody, KeyIdParams } from './schemas.js';
import { createApiKey, listApiKeys, revokeApiKey } from './service.js';
import type { ApiKeyRecord } from './store.js';
import { requires } from '../access/permissions.js';
import type { UnixMillis } from '../lib/clock.js';

const iso = (ms: UnixMillis | null) => (ms === null ? null : new Date(ms).toISOString());
const toApiKey = (key: ApiKeyRecord, callerKeyId: number | null) => ({
  ID: key.id,
  Name: key.name,
  Scopes: key.scopes,
  Partner: key.partner,
  CreatedAt: iso(key.createdAt)!,
  RevokedAt: iso(key.revokedAt),
  Current: key.id === callerKeyId,
});

/** Operator API: API keys. Secrets are shown once, at creation. */
export const keyAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: keys'];

  app.post('/keys', {
    config: requires('keys:manage'),
    schema: {
      tags,
      summary: 'Create an API key',
      body: CreateKeyBody,
      response: { 201: envelope(CreatedApiKey), ...problems(400, ...AUTH_ERRORS, 413, 415, 422) },
    },
    handler: async (request, reply) => {
      const { record, key } = await app.db.write((tx) =>
        createApiKey(tx, request.caller.operatorId, { name: request.body.Name, scopes: request.body.Scopes, partner: request.body.Partner ?? null }),
      );
      return reply.code(201).send({ data: { ID: record.id, Key: key, Name: record.name, Scopes: record.scopes, Partner: record.partner } });
    },
  });

  app.get('/keys', {
    config: requires('keys:manage'),
    schema: { tags, summary: 'List API keys (without secrets)', response: { 200: envelope(Type.Array(ApiKey)), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({
      data: (await listApiKeys(app.db.kysely, request.caller.operatorId)).map((key) => toApiKey(key, request.caller.keyId)),
    }),
  });

  app.delete('/keys/:ID', {
    config: requires('keys:manage'),
    schema: {
      tags,
      summary: 'Revoke an API key',
      params: KeyIdParams,
      response: { 204: Type.Null({ description: 'Revoked' }), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request, reply) => {
      await revokeApiKey(app.db, request.caller.operatorId, request.params.ID);
      return reply.code(204).send(null);
    },
  });
};

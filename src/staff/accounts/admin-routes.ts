import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AUTH_ERRORS, envelope, problems } from '../../http/schemas.js';
import { requires } from '../../access/permissions.js';
import { ChangeUserBody, InviteBody, StaffSession, StaffUser, UserIdParams, UserSessionParams } from '../schemas.js';
import { changeUser, endSessions, getUsers, inviteUser, removeUser, resendInvitation, resetTwoFactor, unlockUser, userSessions } from './service.js';

/** Operator API: the operator's staff users (owners only). */
export const userAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Operator API: users'];
  const config = requires('users:manage');

  app.get('/users', {
    config,
    schema: { tags, summary: 'List users', response: { 200: envelope(Type.Array(StaffUser)), ...problems(...AUTH_ERRORS) } },
    handler: async (request) => ({ data: await getUsers(app.db, request.caller.operatorId) }),
  });

  app.post('/users', {
    config,
    schema: {
      tags,
      summary: 'Invite a user',
      description: 'The user is e-mailed a link (valid 7 days) to choose a password. 409 if the address has an account with this operator already.',
      body: InviteBody,
      response: { 201: envelope(StaffUser), ...problems(400, ...AUTH_ERRORS, 409, 413, 415, 422) },
    },
    handler: async (request, reply) => reply.code(201).send({ data: await inviteUser(app, request.caller.operatorId, request.body) }),
  });

  app.patch('/users/:ID', {
    config,
    schema: {
      tags,
      summary: "Change a user's role or name",
      description: "Takes effect on the user's next request. The only owner cannot be given another role (409).",
      params: UserIdParams,
      body: ChangeUserBody,
      response: { 200: envelope(StaffUser), ...problems(400, ...AUTH_ERRORS, 404, 409, 413, 415, 422) },
    },
    handler: async (request) => ({ data: await changeUser(app.db, request.caller.operatorId, request.params.ID, request.body) }),
  });

  app.delete('/users/:ID', {
    config,
    schema: {
      tags,
      summary: 'Remove a user (their sessions end at once)',
      params: UserIdParams,
      response: { 204: Type.Null(), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request, reply) => {
      await removeUser(app.db, request.caller.operatorId, request.params.ID);
      return reply.code(204).send(null);
    },
  });

  app.post('/users/:ID/invitation', {
    config,
    schema: {
      tags,
      summary: 'Send the invitation again (the earlier link stops working)',
      params: UserIdParams,
      response: { 200: envelope(StaffUser), ...problems(400, ...AUTH_ERRORS, 404, 409) },
    },
    handler: async (request) => ({ data: await resendInvitation(app, request.caller.operatorId, request.params.ID) }),
  });

  app.post('/users/:ID/unlock', {
    config,
    schema: {
      tags,
      summary: "Lift a user's lock-out",
      description: '5 wrong passwords or codes in a row lock an account for 15 minutes (LockedUntil); this lets the user sign in again at once.',
      params: UserIdParams,
      response: { 200: envelope(StaffUser), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await unlockUser(app.db, request.caller.operatorId, request.params.ID) }),
  });

  app.delete('/users/:ID/totp', {
    config,
    schema: {
      tags,
      summary: "Turn off a user's two-factor authentication (a lost phone)",
      description: 'The user signs in with the password alone until they set it up again, and is told by e-mail.',
      params: UserIdParams,
      response: { 200: envelope(StaffUser), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({ data: await resetTwoFactor(app, request.caller.operatorId, request.params.ID) }),
  });

  app.get('/users/:ID/sessions', {
    config,
    schema: {
      tags,
      summary: "A user's live sessions",
      params: UserIdParams,
      response: { 200: envelope(Type.Array(StaffSession)), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request) => ({
      data: await userSessions(
        app.db,
        request.caller.operatorId,
        request.params.ID,
        request.actor?.kind === 'user' ? request.actor.sessionId : undefined,
      ),
    }),
  });

  app.delete('/users/:ID/sessions', {
    config,
    schema: {
      tags,
      summary: 'End every session of a user',
      params: UserIdParams,
      response: { 204: Type.Null(), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request, reply) => {
      await endSessions(app.db, request.caller.operatorId, request.params.ID);
      return reply.code(204).send(null);
    },
  });

  app.delete('/users/:ID/sessions/:SessionID', {
    config,
    schema: {
      tags,
      summary: 'End one session of a user',
      params: UserSessionParams,
      response: { 204: Type.Null(), ...problems(400, ...AUTH_ERRORS, 404) },
    },
    handler: async (request, reply) => {
      await endSessions(app.db, request.caller.operatorId, request.params.ID, request.params.SessionID);
      return reply.code(204).send(null);
    },
  });
};

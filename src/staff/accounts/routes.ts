// One's own account (signed in, any role; under /api/v2/staff): who I am, password, two-factor, sessions,
// signing out. API keys have no "me": these refuse them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../../http/schemas.js';
import type { Actor } from '../../access/actor.js';
import {
  BookingNoticesBody,
  ChangePasswordBody,
  Me,
  PasswordBody,
  StaffUser,
  RecoveryCodes,
  SessionIdParams,
  StaffSession,
  TotpCodeBody,
  TotpEnrolment,
} from '../schemas.js';
import { beginTotp, changeOwnPassword, confirmTotp, disableTotp, signOut } from './own-account.js';
import { endSessions, userSessions } from './service.js';
import { clearSessionCookie, csrfTokenOf, sessionToken } from '../sessions/service.js';
import { findUser, hashToken } from '../users/store.js';
import { setBookingNotices } from '../users/notices-store.js';
import { toStaffUser } from '../view.js';
import { operatorName } from '../../operators/service.js';

const tags = ['Staff accounts'];
const SELF_ERRORS = [400, 401, 403, 413, 415, 422] as const;
// 429: wrong passwords or codes 5 times in a row have locked the account for a while.
const PASSWORD_ERRORS = [...SELF_ERRORS, 429] as const;
const signedIn = { signedIn: true };

function userOf(request: FastifyRequest): Actor & { kind: 'user' } {
  return request.actor as Actor & { kind: 'user' };
}

export const ownAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/me', {
    config: signedIn,
    schema: {
      tags,
      summary: 'The signed-in user, their operator and permissions, and the CSRF token',
      response: { 200: envelope(Me), ...problems(401, 403) },
    },
    handler: async (request) => {
      const actor = userOf(request);
      const user = (await findUser(app.db.kysely, actor.operatorId, actor.userId))!;
      return {
        data: {
          User: toStaffUser(user),
          Operator: { ID: actor.operatorId, Name: await operatorName(app.db.kysely, actor.operatorId) },
          Permissions: [...actor.permissions],
          CsrfToken: csrfTokenOf(app, hashToken(sessionToken(request)!)),
        },
      };
    },
  });

  app.put('/me/booking-notices', {
    config: signedIn,
    schema: {
      tags,
      summary: 'Choose my e-mails about bookings: none, each booking, or a daily digest',
      description:
        'each: an e-mail per booking confirmed, moved or cancelled, of every channel, to my address; digest: one e-mail a day (from 06:00 UTC) ' +
        'listing the bookings made and cancelled in the last 24 hours. Answers my account.',
      body: BookingNoticesBody,
      response: { 200: envelope(StaffUser), ...problems(...SELF_ERRORS) },
    },
    handler: async (request) => {
      const actor = userOf(request);
      await app.db.write((tx) => setBookingNotices(tx, actor.operatorId, actor.userId, request.body.BookingNotices));
      return { data: toStaffUser((await findUser(app.db.kysely, actor.operatorId, actor.userId))!) };
    },
  });

  app.post('/sign-out', {
    config: signedIn,
    schema: { tags, summary: 'Sign out: this session ends', response: { 204: Type.Null(), ...problems(401, 403) } },
    handler: async (request, reply) => {
      await signOut(app.db, userOf(request));
      clearSessionCookie(app, reply);
      return reply.code(204).send(null);
    },
  });

  app.post('/me/password', {
    config: signedIn,
    schema: {
      tags,
      summary: 'Change my password (my other sessions end)',
      body: ChangePasswordBody,
      response: { 204: Type.Null(), ...problems(...PASSWORD_ERRORS) },
    },
    handler: async (request, reply) => {
      await changeOwnPassword(app, userOf(request), request.body.CurrentPassword, request.body.NewPassword);
      return reply.code(204).send(null);
    },
  });

  app.post('/me/totp', {
    config: signedIn,
    schema: {
      tags,
      summary: 'Start two-factor enrolment (needs the password): a new secret and its QR code',
      description: 'The password is asked for so that someone at an unattended, signed-in browser cannot tie the account to their own phone.',
      body: PasswordBody,
      response: { 200: envelope(TotpEnrolment), ...problems(...PASSWORD_ERRORS, 409) },
    },
    handler: async (request) => ({ data: await beginTotp(app, userOf(request), request.body.Password) }),
  });

  app.post('/me/totp/confirm', {
    config: signedIn,
    schema: {
      tags,
      summary: 'Turn two-factor on with a code from the app; answers the recovery codes (once)',
      body: TotpCodeBody,
      response: { 200: envelope(RecoveryCodes), ...problems(...SELF_ERRORS, 409) },
    },
    handler: async (request) => ({ data: { RecoveryCodes: await confirmTotp(app, userOf(request), request.body.Code) } }),
  });

  app.post('/me/totp/disable', {
    config: signedIn,
    schema: {
      tags,
      summary: 'Turn two-factor off (needs the password)',
      body: PasswordBody,
      response: { 204: Type.Null(), ...problems(...PASSWORD_ERRORS) },
    },
    handler: async (request, reply) => {
      await disableTotp(app, userOf(request), request.body.Password);
      return reply.code(204).send(null);
    },
  });

  app.get('/sessions', {
    config: signedIn,
    schema: { tags, summary: 'My live sessions', response: { 200: envelope(Type.Array(StaffSession)), ...problems(401, 403) } },
    handler: async (request) => {
      const actor = userOf(request);
      return { data: await userSessions(app.db, actor.operatorId, actor.userId, actor.sessionId) };
    },
  });

  app.delete('/sessions/:ID', {
    config: signedIn,
    schema: {
      tags,
      summary: 'End one of my sessions (refused at once afterwards)',
      params: SessionIdParams,
      response: { 204: Type.Null(), ...problems(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const actor = userOf(request);
      await endSessions(app.db, actor.operatorId, actor.userId, request.params.ID);
      if (request.params.ID === actor.sessionId) clearSessionCookie(app, reply);
      return reply.code(204).send(null);
    },
  });
};

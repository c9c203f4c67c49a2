// Staff accounts, the user's side: signing in (public), and one's own account, password, two-factor and
// sessions (signed in, any role). API keys have no "me": these refuse them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../http/schemas.js';
import type { Actor } from '../access/actor.js';
import {
  AcceptInvitationBody,
  ChangePasswordBody,
  CompleteResetBody,
  EmailBody,
  Me,
  PasswordBody,
  PasswordSignInBody,
  RecoveryCodes,
  SessionIdParams,
  SignInResult,
  StaffSession,
  TokenBody,
  TotpCodeBody,
  TotpEnrolment,
  TotpSignInBody,
} from './schemas.js';
import { acceptInvitation, completeReset, sendLinks, signInWithLink, signInWithPassword, signInWithTotp } from './sign-in/service.js';
import { beginTotp, changeOwnPassword, confirmTotp, disableTotp, endSessions, signOut, userSessions } from './accounts/service.js';
import { clearSessionCookie, csrfTokenOf, foreignOrigin, sessionToken } from './sessions/service.js';
import { Forbidden } from '../http/errors.js';
import { findUser, hashToken } from './users/store.js';
import { toStaffUser } from './view.js';
import { operatorName } from '../operators/service.js';

const tags = ['Staff accounts'];
const SIGN_IN_ERRORS = problems(400, 401, 413, 415, 422, 429);
const SELF_ERRORS = [400, 401, 403, 413, 415, 422] as const;
// 429: wrong passwords or codes 5 times in a row have locked the account for a while.
const PASSWORD_ERRORS = [...SELF_ERRORS, 429] as const;
const signedIn = { signedIn: true };
// The same answer whether the address has an account or not.
const Accepted = envelope(Type.Object({ Message: Type.String() }), 'Accepted: an e-mail is on its way if the address has an account');
const accepted = { data: { Message: 'If the address has an account, an e-mail with a link is on its way.' } };

function userOf(request: FastifyRequest): Actor & { kind: 'user' } {
  return request.actor as Actor & { kind: 'user' };
}

export const staffRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Sign-in requests from another site's page are refused too (login CSRF: signing a victim in as the
  // attacker); signed-in requests get the same check with their CSRF token (sessions.ts).
  app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && foreignOrigin(request)) throw new Forbidden('This request came from another site (Origin); it was refused');
  });

  app.post('/sign-in', {
    schema: {
      tags,
      summary: 'Sign in with e-mail and password',
      description:
        'Sets the session cookie when Status is signed-in. A wrong address, a wrong password and a locked account all answer the same 401.',
      security: [],
      body: PasswordSignInBody,
      response: { 200: envelope(SignInResult), ...SIGN_IN_ERRORS },
    },
    handler: async (request, reply) => ({ data: await signInWithPassword(request, reply, request.body) }),
  });

  app.post('/sign-in/totp', {
    schema: {
      tags,
      summary: 'Second step: the authenticator code (or a recovery code)',
      security: [],
      body: TotpSignInBody,
      response: { 200: envelope(SignInResult), ...SIGN_IN_ERRORS },
    },
    handler: async (request, reply) => ({ data: await signInWithTotp(request, reply, request.body) }),
  });

  app.post('/sign-in/link', {
    schema: {
      tags,
      summary: 'E-mail me a sign-in link',
      description: 'Always 202, whether the address has an account or not. The link works once, for 15 minutes.',
      security: [],
      body: EmailBody,
      response: { 202: Accepted, ...problems(400, 413, 415, 422, 429) },
    },
    handler: async (request, reply) => {
      await sendLinks(request, request.body.Email, 'sign-in-link');
      return reply.code(202).send(accepted);
    },
  });

  app.post('/sign-in/link/use', {
    schema: {
      tags,
      summary: 'Sign in with the token of an e-mailed link',
      security: [],
      body: TokenBody,
      response: { 200: envelope(SignInResult), ...SIGN_IN_ERRORS },
    },
    handler: async (request, reply) => ({ data: await signInWithLink(request, reply, request.body.Token) }),
  });

  app.post('/password-reset', {
    schema: {
      tags,
      summary: 'E-mail me a password reset link',
      description: 'Always 202, whether the address has an account or not. The link works once, for an hour.',
      security: [],
      body: EmailBody,
      response: { 202: Accepted, ...problems(400, 413, 415, 422, 429) },
    },
    handler: async (request, reply) => {
      await sendLinks(request, request.body.Email, 'password-reset');
      return reply.code(202).send(accepted);
    },
  });

  app.post('/password-reset/complete', {
    schema: {
      tags,
      summary: 'Choose a new password with the token of a reset link',
      description: 'Every session of the account ends; then it is signed in here (or asks for the TOTP code).',
      security: [],
      body: CompleteResetBody,
      response: { 200: envelope(SignInResult), ...SIGN_IN_ERRORS },
    },
    handler: async (request, reply) => ({ data: await completeReset(request, reply, request.body.Token, request.body.Password) }),
  });

  app.post('/invitations/accept', {
    schema: {
      tags,
      summary: 'Accept an invitation: choose a password and sign in',
      security: [],
      body: AcceptInvitationBody,
      response: { 200: envelope(SignInResult), ...SIGN_IN_ERRORS },
    },
    handler: async (request, reply) => ({ data: await acceptInvitation(request, reply, request.body) }),
  });

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

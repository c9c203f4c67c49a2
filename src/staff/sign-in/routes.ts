// Signing in (public, under /api/v2/staff): password, TOTP, e-mailed links, password resets, invitations.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { envelope, problems } from '../../http/schemas.js';
import { AcceptInvitationBody, CompleteResetBody, EmailBody, PasswordSignInBody, SignInResult, TokenBody, TotpSignInBody } from '../schemas.js';
import { acceptInvitation, completeReset, sendLinks, signInWithLink, signInWithPassword, signInWithTotp } from './service.js';

const tags = ['Staff accounts'];
const SIGN_IN_ERRORS = problems(400, 401, 413, 415, 422, 429);
// The same answer whether the address has an account or not.
const Accepted = envelope(Type.Object({ Message: Type.String() }), 'Accepted: an e-mail is on its way if the address has an account');
const accepted = { data: { Message: 'If the address has an account, an e-mail with a link is on its way.' } };

export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
};

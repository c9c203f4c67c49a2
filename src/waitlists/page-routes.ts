// The confirmation page of a waitlist place, linked from the e-mail joining.ts sends: GET shows it and
// changes nothing; its form POSTs, which confirms, then redirects (303) to the page, so that a reload
// never posts again. Public (the token is the only handle) and rate-limited per address like the shop.
// A page for people, not an API: it answers HTML (errors too) and is left out of /openapi.json, like the
// dashboard; docs/platform-events.md describes it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { confirmationPath, confirmationState, confirmPlace, type ConfirmationState } from './joining.js';
import { PAGE_HEADERS, renderConfirmationPage } from './confirmation-page.js';

const TokenParams = Type.Object({ Token: Type.String({ maxLength: 100, description: 'The token of the link in the confirmation e-mail' }) });

function sendPage(reply: FastifyReply, state: ConfirmationState, token: string): FastifyReply {
  const { status, html: body } = renderConfirmationPage(state, confirmationPath(token));
  return reply.code(status).headers(PAGE_HEADERS).send(body);
}

export const waitlistPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The page's form posts application/x-www-form-urlencoded with no fields: nothing of it is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  const config = { shopper: true };

  app.get('/waitlist/confirm/:Token', {
    config,
    // Shows the place and a "Confirm my place" button; confirms nothing (mail scanners open links). 404 unknown, 410 lapsed or removed.
    schema: { hide: true, params: TokenParams },
    handler: async (request, reply) => sendPage(reply, await confirmationState(app.db.kysely, request.params.Token), request.params.Token),
  });

  app.post('/waitlist/confirm/:Token', {
    config,
    // Confirms once (the place then counts, in the order of confirmation) and redirects (303) to the page.
    schema: { hide: true, params: TokenParams },
    handler: async (request, reply) => {
      const { Token } = request.params;
      const state = await confirmPlace(app.db, Token);
      if (state.kind === 'confirmed')
        return reply
          .code(303)
          .headers({ location: confirmationPath(Token), 'cache-control': 'no-store' })
          .send();
      return sendPage(reply, state, Token);
    },
  });
};

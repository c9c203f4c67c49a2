// The confirmation page of a waitlist place, linked from the e-mail joining.ts sends: GET shows it and
// changes nothing; its form POSTs, which confirms, then redirects (303) to the page, so that a reload
// never posts again. Public (the token is the only handle) and rate-limited per address like the shop.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { confirmationPath, confirmationState, confirmPlace, type ConfirmationState } from './joining.js';
import { PAGE_HEADERS, renderConfirmationPage } from './confirmation-page.js';

const TokenParams = Type.Object({ Token: Type.String({ maxLength: 100, description: 'The token of the link in the confirmation e-mail' }) });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

function sendPage(reply: FastifyReply, state: ConfirmationState, token: string): FastifyReply {
  const { status, html: body } = renderConfirmationPage(state, confirmationPath(token));
  return reply.code(status).headers(PAGE_HEADERS).send(body);
}

export const waitlistPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Online shop (public)'];
  // The page's form posts application/x-www-form-urlencoded with no fields: nothing of it is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  const config = { shopper: true };

  app.get('/waitlist/confirm/:Token', {
    config,
    schema: {
      tags,
      summary: 'Waitlist confirmation page (HTML)',
      description:
        'The page the confirmation e-mail links to. It shows the place and a "Confirm my place" button; opening it confirms nothing (mail scanners open links). ' +
        '404 for an unknown link, 410 when it lapsed or the operator removed the place.',
      params: TokenParams,
      response: { 200: html('The page'), 404: html('Unknown link'), 410: html('Lapsed or removed') },
    },
    handler: async (request, reply) => sendPage(reply, await confirmationState(app.db.kysely, request.params.Token), request.params.Token),
  });

  app.post('/waitlist/confirm/:Token', {
    config,
    schema: {
      tags,
      summary: 'Confirm a waitlist place (the page\'s form)',
      description: 'Confirms the place once (from then on it counts, in the order of confirmation) and redirects (303) to the page, which then says so.',
      params: TokenParams,
      response: { 303: { description: 'Confirmed: see the page', type: 'null' }, 404: html('Unknown link'), 410: html('Lapsed or removed') },
    },
    handler: async (request, reply) => {
      const { Token } = request.params;
      const state = await confirmPlace(app.db, Token);
      if (state.kind === 'confirmed') return reply.code(303).headers({ location: confirmationPath(Token), 'cache-control': 'no-store' }).send();
      return sendPage(reply, state, Token);
    },
  });
};

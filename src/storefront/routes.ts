// The booking pages at /book/{slug} (or /book/{OperatorID}): ONE route module, so that the response
// headers of every booking page (Content-Security-Policy, its frame-ancestors) are decided here. Every
// address under /book/{shop}/ answers the same shell (page.ts); the booking script renders the page the
// path names (activity, basket, confirmation, manage link), talking only to the public shop API.
// The pages are for people: HTML answers (errors too), left out of /openapi.json.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_DIST_DIR } from '../dashboard/routes.js';
import { operatorIdBySlug } from '../operators/slug.js';
import { operatorExists } from '../operators/service.js';
import { shopState, takesTestPayments } from '../shop/settings.js';
import { requireShopProfile } from '../settings/profile.js';
import { toStorefrontProfile } from './view.js';
import { operatorFrameAncestors, withFrameAncestors } from '../embed/frame-ancestors.js';
import { movedBookingPath } from '../settings/slug-redirect.js';
import { pickLocale, renderPlainPage, renderShell, type BookingAssets, type RenderedPage } from './page.js';

export interface StorefrontOptions {
  /** The built web app (default: web/dist of this checkout). */
  distDir?: string;
}

/** The booking script and styles vite built (their names carry a content hash). */
function findAssets(dist: string): BookingAssets | undefined {
  const dir = join(dist, 'assets');
  if (!existsSync(dir)) return undefined;
  const names = readdirSync(dir);
  const script = names.find((name) => /^booking-[\w-]+\.js$/.test(name));
  return script ? { script, style: names.find((name) => /^booking-[\w-]+\.css$/.test(name)) } : undefined;
}

function send(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  // helmet's X-Frame-Options: DENY (set on the raw answer) would overrule frame-ancestors: the CSP decides.
  reply.raw.removeHeader('x-frame-options');
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': page.csp,
      // The addresses carry basket and manage tokens: no page they link to may learn them.
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
    })
    .send(page.html);
}

/** The operator a /book/{shop} address names: a slug, or the numeric ID; undefined when unknown. */
async function operatorOf(request: FastifyRequest, shop: string): Promise<number | undefined> {
  const db = request.server.db.kysely;
  if (/^[1-9][0-9]{0,9}$/.test(shop)) {
    const id = Number(shop);
    return (await operatorExists(db, id)) ? id : undefined;
  }
  return operatorIdBySlug(db, shop);
}

export const storefrontRoutes: FastifyPluginAsync<StorefrontOptions> = async (app, options) => {
  const assets = findAssets(options.distDir ?? DEFAULT_DIST_DIR);
  const config = { shopper: true };

  const page = async (request: FastifyRequest<{ Params: { shop: string }; Querystring: { lang?: string } }>, reply: FastifyReply) => {
    const { shop } = request.params;
    const operatorId = await operatorOf(request, shop);
    // A slug the operator had before: a permanent redirect to its current one (src/settings/slug-redirect.ts).
    const moved = operatorId === undefined ? await movedBookingPath(app.db.kysely, shop, request.url) : undefined;
    if (moved) return reply.code(301).headers({ location: moved, 'cache-control': 'no-store' }).send();
    // A closed shop is as unknown as a missing one, like its API.
    const state = operatorId === undefined ? undefined : await shopState(app.db.kysely, operatorId, app.config);
    if (operatorId === undefined || !state?.open) {
      return send(
        reply,
        404,
        renderPlainPage('This shop does not exist', 'Check the address, or ask the operator for the link to their booking pages.'),
      );
    }
    if (!assets) return send(reply, 503, renderPlainPage('The booking pages are not built', 'Run npm run build:web (npm start does) and reload.'));
    const locale = pickLocale(request.query.lang, request.headers['accept-language']);
    const profile = toStorefrontProfile(await requireShopProfile(app.db.kysely, operatorId, ''));
    const shell = renderShell(
      {
        OperatorID: operatorId,
        Base: `/book/${shop}`,
        Locale: locale,
        Profile: profile,
        TestMode: takesTestPayments(state),
        PaymentProvider: state.provider?.name ?? null,
      },
      assets,
    );
    // Who may frame the pages (the embed): any site until the operator lists some (src/embed/frame-ancestors.ts).
    return send(reply, 200, { ...shell, csp: withFrameAncestors(shell.csp, await operatorFrameAncestors(app.db.kysely, operatorId)) });
  };

  const schema = { hide: true };
  app.get('/book/:shop', { config, schema }, page);
  app.get('/book/:shop/*', { config, schema }, page);
};

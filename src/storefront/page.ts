// The HTML of every booking page: a small server-rendered shell (the operator's name, the language, the
// brand colour) that the booking script (web/src/book, built by vite into web/dist/assets/booking-*.js)
// turns into the page the address names. The shell carries the script's start data as JSON, which a
// Content-Security-Policy allows since it is never executed. Every text from the database is escaped.
import { createHash } from 'node:crypto';
import type { StorefrontProfile } from './schemas.js';

export interface BookingAssets {
  script: string;
  style: string | undefined;
}

export interface Boot {
  OperatorID: number;
  /** The address prefix the pages live under: /book/{slug or ID as requested}. */
  Base: string;
  Locale: 'en' | 'de';
  Profile: StorefrontProfile;
  /** The shop takes no real payments (the test provider): every page says "test mode" (web/src/book/main.ts). */
  TestMode: boolean;
  /** Who takes the shop's payments: the test provider's card field, or Stripe's page (docs/payments.md). */
  PaymentProvider?: 'test' | 'stripe' | null;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside a script element: "<" never appears, so "</script>" cannot end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export interface RenderedPage {
  html: string;
  csp: string;
}

/**
 * The frame-ancestors a page starts with: 'self'. routes.ts replaces it on a shop's pages with the
 * operator's (src/embed/frame-ancestors.ts: any site until the operator lists the allowed ones).
 */
export function frameAncestors(): string {
  return "'self'";
}

/** The logo beside the shop's name (which says it in words: the image is decorative), when there is one. */
const logo = (url: string | null) => (url?.startsWith('/branding/') ? `<img class="shop-logo" src="${escapeHtml(url)}" alt="" height="40">` : '');

export function renderShell(boot: Boot, assets: BookingAssets): RenderedPage {
  const { Profile: profile } = boot;
  const brand = profile.BrandColour !== null && HEX_COLOUR.test(profile.BrandColour) ? `:root{--brand:${profile.BrandColour}}` : undefined;
  const loading = boot.Locale === 'de' ? 'Wird geladen …' : 'Loading …';
  const html =
    `<!doctype html>\n<html lang="${boot.Locale}">\n<head>\n<meta charset="utf-8">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(profile.Name)}</title>\n` +
    (assets.style ? `<link rel="stylesheet" href="/assets/${assets.style}">\n` : '') +
    (brand ? `<style>${brand}</style>\n` : '') +
    `<script type="module" src="/assets/${assets.script}"></script>\n` +
    // Inside the embed, tells the embedding page its height and Escape (src/embed/frame.js); else nothing.
    '<script src="/embed/frame.js" defer></script>\n</head>\n<body>\n' +
    `<header class="shop-header"><a class="shop-name" href="${escapeHtml(boot.Base)}">${logo(profile.LogoUrl)}${escapeHtml(profile.Name)}</a><span id="language"></span></header>\n` +
    `<main id="main" tabindex="-1"><p class="loading">${loading}</p></main>\n` +
    '<div id="announcer" class="visually-hidden" aria-live="polite"></div>\n' +
    `<noscript><p>${boot.Locale === 'de' ? 'Die Buchungsseiten brauchen JavaScript.' : 'The booking pages need JavaScript.'}</p></noscript>\n` +
    `<script type="application/json" id="slotbook-boot">${scriptJson(boot)}</script>\n</body>\n</html>\n`;
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${brand ? ` ${sha256(brand)}` : ''}`,
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors()}`,
  ].join('; ');
  return { html, csp };
}

/** A page without the script: an unknown shop, or pages not built yet. */
export function renderPlainPage(title: string, text: string): RenderedPage {
  const html =
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n</head>\n` +
    `<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n</main>\n</body>\n</html>\n`;
  return { html, csp: `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors()}` };
}

/** en or de, from ?lang= when given, else the first of them Accept-Language names (q-values honoured), else en. */
export function pickLocale(query: string | undefined, acceptLanguage: string | undefined): 'en' | 'de' {
  if (query === 'de' || query === 'en') return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: (tag ?? '').toLowerCase().split('-')[0]!, q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => entry.lang !== '' && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  const found = ranked.find((entry) => entry.lang === 'en' || entry.lang === 'de');
  return found?.lang === 'de' ? 'de' : 'en';
}

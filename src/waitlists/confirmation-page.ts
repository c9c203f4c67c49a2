// The page a waitlist confirmation e-mail links to: server-rendered HTML, no JavaScript, readable on a
// phone and by a screen reader. Opening it changes nothing (mail scanners fetch links); its button posts
// the form that confirms. This module only renders: page-routes.ts decides the state and sends it. Every
// text from the database is escaped; the page loads nothing from anywhere (see PAGE_HEADERS).
import { createHash } from 'node:crypto';
import type { ConfirmationState } from './joining.js';

const CSS = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1f24;background:#f4f6f8}
body{margin:0;padding:1.5rem 1rem}
main{max-width:34rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.operator{margin:0 0 .25rem;color:#4a5563;font-size:.95rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1.25rem}
dt{color:#4a5563}dd{margin:0;font-weight:600}
button{font:inherit;font-weight:600;font-size:1.05rem;min-height:48px;width:100%;padding:.75rem 1rem;border:0;border-radius:8px;background:#0b5cad;color:#fff;cursor:pointer}
button:hover{background:#094a8c}
button:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
.note{color:#4a5563;font-size:.95rem;margin:1rem 0 0}
`.trim();

/** The response headers of every confirmation page: nothing to load, nothing to frame, nothing to keep. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // The token is in the address: no page it links to may learn it.
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
  'content-security-policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Page {
  status: number;
  html: string;
}

function page(status: number, heading: string, parts: { operator?: string; body: string }): Page {
  const title = parts.operator ? `${heading} – ${parts.operator}` : heading;
  const html =
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n<main>\n` +
    (parts.operator ? `<p class="operator">${escapeHtml(parts.operator)}</p>\n` : '') +
    `<h1>${escapeHtml(heading)}</h1>\n${parts.body}</main>\n</body>\n</html>\n`;
  return { status, html };
}

function details(entry: Extract<ConfirmationState, { entry: unknown }>['entry']): string {
  const rows: [string, string][] = [
    ['Activity', entry.activity_name],
    ['Date', entry.date],
    ['Time', `${entry.time} (${entry.timezone})`],
    ['Seats', String(entry.participants)],
  ];
  return `<dl>\n${rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}\n</dl>\n`;
}

/** The page for a confirmation link's state; `action` is the address its form posts to. */
export function renderConfirmationPage(state: ConfirmationState, action: string): Page {
  if (state.kind === 'unknown') {
    return page(404, 'This link is not valid', {
      body: '<p>Check that the whole address from the e-mail was opened, or join the waitlist again from the shop.</p>\n',
    });
  }
  const { entry } = state;
  const operator = entry.operator_name;
  switch (state.kind) {
    case 'confirmable':
      return page(200, 'Confirm your place on the waitlist', {
        operator,
        body:
          details(entry) +
          `<form method="post" action="${escapeHtml(action)}">\n<button type="submit">Confirm my place</button>\n</form>\n` +
          '<p class="note">When seats free up, they are offered in the order places were confirmed, by e-mail. If you did not ask for this, close this page: nothing happens.</p>\n',
      });
    case 'confirmed':
      return page(200, 'Your place on the waitlist is confirmed', {
        operator,
        body: `${details(entry)}<p>When seats free up, we hold them for you and send you an e-mail with a link to pay for them.</p>\n`,
      });
    case 'lapsed':
      return page(410, 'This link has expired', {
        operator,
        body: `${details(entry)}<p>The place was not confirmed in time, or the timeslot has begun. To wait for seats, join the waitlist again from the shop.</p>\n`,
      });
    case 'closed':
      return page(410, 'This place is no longer on the waitlist', {
        operator,
        body: `${details(entry)}<p>The operator has taken it off the waitlist. To wait for seats, join the waitlist again from the shop.</p>\n`,
      });
  }
}

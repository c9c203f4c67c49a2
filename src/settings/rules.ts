// The rules of the operator's shop settings that are not the database's: a brand colour that stays
// readable, and the list of websites allowed to frame the booking pages.
import { ValidationFailed } from '../http/errors.js';

/** WCAG 2 AA for normal text: the booking pages put white text on the brand colour (buttons, header). */
export const MIN_CONTRAST = 4.5;
export const MAX_EMBED_ORIGINS = 20;

function channel(hex: string): number {
  const c = parseInt(hex, 16) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of #rrggbb. */
function luminance(colour: string): number {
  return 0.2126 * channel(colour.slice(1, 3)) + 0.7152 * channel(colour.slice(3, 5)) + 0.0722 * channel(colour.slice(5, 7));
}

/** The contrast ratio of white text on #rrggbb (1 to 21). */
export function contrastWithWhite(colour: string): number {
  return 1.05 / (luminance(colour) + 0.05);
}

/** "#0B5CAD", "0b5cad" or "#09c" → "#0b5cad" / "#0099cc"; refused when white text on it would be hard to read. */
export function normaliseBrandColour(input: string): string {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(input.trim());
  if (!match) throw ValidationFailed.field('BrandColour', 'BrandColour must be a hex colour such as #0b5cad');
  const hex = match[1]!.toLowerCase();
  const colour = `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
  const ratio = contrastWithWhite(colour);
  if (ratio < MIN_CONTRAST) {
    throw ValidationFailed.field(
      'BrandColour',
      `White text on ${colour} has a contrast of ${ratio.toFixed(2)}:1; the booking pages need at least ${MIN_CONTRAST}:1 (WCAG AA). Choose a darker colour.`,
    );
  }
  return colour;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * One website that may frame the booking pages, as a CSP source: its origin only (scheme, host, port
 * when not the default), lower case. https only, except loopback addresses (a developer's machine).
 */
export function normaliseOrigin(input: string, field: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw ValidationFailed.field(field, `${JSON.stringify(input)} is not a website address; write it like https://www.example.com`);
  }
  const loopback = LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw ValidationFailed.field(field, `${url.origin || input} must start with https:// (http:// only for localhost)`);
  }
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw ValidationFailed.field(field, `${input} must be a website's origin only, like https://www.example.com (no path, query or user)`);
  }
  if (!loopback && !url.hostname.includes('.')) throw ValidationFailed.field(field, `${input} is not a public website address`);
  return url.origin;
}

/** The list, normalised, without duplicates, in the order given. */
export function normaliseOrigins(inputs: readonly string[]): string[] {
  if (inputs.length > MAX_EMBED_ORIGINS) throw ValidationFailed.field('AllowedEmbedOrigins', `At most ${MAX_EMBED_ORIGINS} websites`);
  return [...new Set(inputs.map((input, i) => normaliseOrigin(input, `AllowedEmbedOrigins[${i}]`)))];
}

// The operator's logo: a PNG, JPEG or WebP image, judged by its bytes (file-type reads the signature), at
// most 512 KiB. SVG is refused: it is a document that can carry scripts and links, and a logo shown on
// the booking pages, in e-mails and on other websites does not need to be a vector. It is served to
// everyone (pages, e-mail clients) under an address that names its digest, so it can be cached forever.
import { createHash } from 'node:crypto';
import { sniffImage } from '../lib/image-bytes.js';
import { DomainError } from '../http/errors.js';

export const MAX_LOGO_BYTES = 512 * 1024;

/** Accepted types with the extension of the public address. */
export const LOGO_TYPES: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const LOGO_TYPES_TEXT = 'a PNG, JPEG or WebP image';

export class UnsupportedLogo extends DomainError {
  constructor(message: string) {
    super('unsupported-media-type', message);
  }
}

export class LogoTooLarge extends DomainError {
  constructor(size: number) {
    super('payload-too-large', `The logo is ${Math.ceil(size / 1024)} KiB; at most ${MAX_LOGO_BYTES / 1024} KiB`);
  }
}

/** The logo's type, from its bytes; an SVG, HTML or anything else is refused whatever Content-Type says. */
export async function detectLogoType(content: Buffer): Promise<string> {
  if (content.length === 0) throw new UnsupportedLogo(`The body is empty: send the logo's bytes (${LOGO_TYPES_TEXT})`);
  if (content.length > MAX_LOGO_BYTES) throw new LogoTooLarge(content.length);
  const { mime: detected, svg } = await sniffImage(content);
  if (detected === undefined || !(detected in LOGO_TYPES)) {
    throw new UnsupportedLogo(
      svg
        ? `SVG logos are not accepted (an SVG can carry scripts): send ${LOGO_TYPES_TEXT}`
        : `The logo must be ${LOGO_TYPES_TEXT}${detected ? ` (this is ${detected})` : ''}`,
    );
  }
  return detected;
}

export function logoDigest(content: Buffer): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}

/** The logo's public address; a new logo gets a new one (the digest), so caches never show the old. */
export function logoPath(operatorId: number, digest: string, contentType: string): string {
  return `/branding/${operatorId}/logo-${digest}.${LOGO_TYPES[contentType] ?? 'img'}`;
}

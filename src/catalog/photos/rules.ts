// What an activity photo may be: a JPEG or PNG (judged by its bytes, like the logo: src/lib/image-bytes.ts),
// at most 8 MiB and 30 megapixels as its header declares (checked before decoding: decoding is pure
// JavaScript, docs/booking-pages.md), at most 10 per activity. WebP and HEIC are refused with a 415 that
// says which types to send: the pure-JavaScript decoder reads neither.
import { DomainError, ValidationFailed } from '../../http/errors.js';
import { declaredPixelSize, sniffImage, type PixelSize } from '../../lib/image-bytes.js';

export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
export const MAX_PHOTO_PIXELS = 30_000_000;
export const MAX_PHOTOS_PER_ACTIVITY = 10;
/** The smallest side a photo may have: a smaller one looks broken at the narrowest size shown. */
export const MIN_PHOTO_SIDE = 200;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);
const PHOTO_TYPES_TEXT = 'a JPEG or PNG image';

export class UnsupportedPhoto extends DomainError {
  constructor(message: string) {
    super('unsupported-media-type', message);
  }
}

export class PhotoTooLarge extends DomainError {
  constructor(size: number) {
    super('payload-too-large', `The photo is ${(size / 1024 / 1024).toFixed(1)} MiB; at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB`);
  }
}

/** The photo's type and declared size, from its bytes; refuses anything else before it is decoded. */
export async function checkPhotoBytes(content: Buffer): Promise<{ mime: string } & PixelSize> {
  if (content.length === 0) throw new UnsupportedPhoto(`The body is empty: send the photo's bytes (${PHOTO_TYPES_TEXT})`);
  if (content.length > MAX_PHOTO_BYTES) throw new PhotoTooLarge(content.length);
  const { mime, svg } = await sniffImage(content);
  if (mime === undefined || !PHOTO_TYPES.has(mime)) {
    throw new UnsupportedPhoto(
      svg
        ? `SVG photos are not accepted (an SVG can carry scripts): send ${PHOTO_TYPES_TEXT}`
        : `A photo must be ${PHOTO_TYPES_TEXT}${mime ? ` (this is ${mime})` : ''}`,
    );
  }
  const size = declaredPixelSize(content, mime);
  if (!size || size.width === 0 || size.height === 0) throw ValidationFailed.field('Photo', 'The image is damaged: its size cannot be read');
  if (size.width * size.height > MAX_PHOTO_PIXELS)
    throw ValidationFailed.field('Photo', `The photo is ${size.width}×${size.height} pixels; at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`);
  if (Math.min(size.width, size.height) < MIN_PHOTO_SIDE)
    throw ValidationFailed.field('Photo', `The photo is ${size.width}×${size.height} pixels; each side needs at least ${MIN_PHOTO_SIDE}`);
  return { mime, ...size };
}

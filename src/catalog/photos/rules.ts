// What an activity photo may be: a JPEG or PNG (judged by its bytes, like the logo: src/lib/image-bytes.ts),
// at most 8 MiB, at most 10 per activity. Its size in pixels (at most 30 megapixels, each side at least
// 200) and what decoding it would take (at most PHOTO_DECODE_BUDGET) are judged by the resizer's worker on
// the header its decoder reads, before anything is decoded (resize-worker.ts): a separate parse of the
// header can be fooled into reading another one. WebP and HEIC are refused with a 415 that says which
// types to send: the decoders read neither.
import { DomainError, ValidationFailed } from '../../http/errors.js';
import { sniffImage } from '../../lib/image-bytes.js';
import type { Refusal } from './resize-worker.js';

export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
export const MAX_PHOTO_PIXELS = 30_000_000;
export const MAX_PHOTOS_PER_ACTIVITY = 10;
/** The smallest side a photo may have: a smaller one looks broken at the narrowest size shown. */
export const MIN_PHOTO_SIDE = 200;
/**
 * What decoding and resizing one photo may hold at once outside the V8 heap (bitmaps, the decoders'
 * buffers), bounded before it is allocated (resize-worker.ts). The resident memory of the whole server
 * aims at 200 MB (docs/benchmarks.md), of which an idle server holds 110 to 150: measured, a photo adds 65
 * to 110 MB while it is resized. Baseline JPEGs fit up to 30 megapixels, progressive ones up to 12 to 16
 * (every coefficient kept: up to 6 bytes a pixel), PNGs (decoded whole by pngjs) up to about 4 of RGBA.
 */
export const PHOTO_DECODE_BUDGET = 128 * 1024 * 1024;
/** The worker's V8 heap (old generation): jimp's code and the JPEG encoder's arrays, a few MB in use. */
export const PHOTO_WORKER_HEAP_MB = 48;
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

/** The photo's type, from its bytes; refuses anything else before it reaches a decoder. */
export async function checkPhotoBytes(content: Buffer): Promise<{ mime: string }> {
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
  return { mime };
}

const MiB = 1024 * 1024;

/** The 422 for a photo the resizer's worker would not decode, naming Photo. */
export function refusedPhoto(refusal: Refusal): ValidationFailed {
  const message = (() => {
    switch (refusal.reason) {
      case 'damaged':
        return 'The image is damaged: it cannot be decoded';
      case 'cmyk':
        return 'The photo is a CMYK JPEG (print colours), which cannot be decoded: save it as an RGB JPEG and upload it again';
      case 'pixels':
        return `The photo is ${refusal.width}×${refusal.height} pixels; at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels`;
      case 'small':
        return `The photo is ${refusal.width}×${refusal.height} pixels; each side needs at least ${MIN_PHOTO_SIDE}`;
      case 'memory': {
        const size = refusal.width ? `The photo is ${refusal.width}×${refusal.height} pixels, ` : 'The photo is ';
        const needs = refusal.needs ? ` (about ${Math.ceil(refusal.needs / MiB)} MiB)` : '';
        return `${size}too large to process: decoding it would take more memory${needs} than a photo may use (${PHOTO_DECODE_BUDGET / MiB} MiB); send a smaller picture`;
      }
    }
  })();
  return ValidationFailed.field('Photo', message);
}

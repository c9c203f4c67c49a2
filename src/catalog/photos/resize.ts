// Resizing, once, when a photo is uploaded (never per request): a JPEG of each width in PHOTO_WIDTHS no
// wider than the original (the original's own width when it is narrower than the largest). jimp is pure
// JavaScript from the npm registry (sharp would download a native binary at install): slower, so the
// sizes are few and made once (docs/booking-pages.md, "Photos").
import { Jimp } from 'jimp';
import { ValidationFailed } from '../../http/errors.js';

/** The widths the booking pages choose from (srcset): a phone, a tablet or a laptop, a wide screen. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;
const JPEG_QUALITY = 80;
const JPEG = 'image/jpeg' as const;

export interface ResizedPhoto {
  width: number;
  height: number;
  content: Buffer;
}

export async function resizedCopies(content: Buffer): Promise<{ width: number; height: number; sizes: ResizedPhoto[] }> {
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(content);
  } catch {
    throw ValidationFailed.field('Photo', 'The image is damaged: it cannot be decoded');
  }
  const { width, height } = image;
  const widths = [...new Set(PHOTO_WIDTHS.map((wanted) => Math.min(wanted, width)))].sort((a, b) => b - a);
  const sizes: ResizedPhoto[] = [];
  // Widest first, each smaller one made from the one before: scaling 1600 pixels down is far cheaper than
  // scaling the original again, and looks the same at these sizes.
  let source = image;
  for (const target of widths) {
    const copy = source.clone();
    if (target !== copy.width) copy.resize({ w: target }); // in place: jimp's operations change the image they are called on
    sizes.unshift({ width: copy.width, height: copy.height, content: await copy.getBuffer(JPEG, { quality: JPEG_QUALITY }) });
    source = copy;
  }
  return { width, height, sizes };
}

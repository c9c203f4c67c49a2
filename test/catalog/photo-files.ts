// Real pictures for the photo tests, made by the same library that resizes them (one colour: enough
// for the checks, small to encode).
import { Jimp } from 'jimp';

export async function picture(width: number, height: number, mime: 'image/jpeg' | 'image/png' = 'image/jpeg', colour = 0x2266aaff): Promise<Buffer> {
  const image = new Jimp({ width, height, color: colour });
  return mime === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg', { quality: 90 });
}

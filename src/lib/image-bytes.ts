// What an uploaded image is, judged by its bytes and never by the Content-Type or the file name: the
// signature (file-type), whether it is an SVG (a document that can carry scripts, refused everywhere), and
// the pixel size a PNG or JPEG header declares, read before anything decodes it (a small file can declare
// a huge picture). Used by the operator's logo (src/settings/logo.ts) and activity photos (src/catalog/photos).
import { fileTypeFromBuffer } from 'file-type';

export interface SniffedImage {
  /** The type the signature says, if file-type knows it. */
  mime: string | undefined;
  /** The bytes look like an SVG document (file-type names it XML at most). */
  svg: boolean;
}

export async function sniffImage(content: Buffer): Promise<SniffedImage> {
  const mime = (await fileTypeFromBuffer(content))?.mime;
  return { mime, svg: /<svg[\s>]/i.test(content.subarray(0, 4096).toString('latin1')) };
}

export interface PixelSize {
  width: number;
  height: number;
}

/** PNG: the IHDR chunk follows the 8-byte signature, width and height at bytes 16 and 20. */
function pngSize(content: Buffer): PixelSize | undefined {
  if (content.length < 24 || content.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: content.readUInt32BE(16), height: content.readUInt32BE(20) };
}

// JPEG start-of-frame markers (baseline, progressive, lossless...): C0-CF but C4 (Huffman tables), C8
// (reserved) and CC (arithmetic coding conditioning).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: walks the segments to the first start-of-frame, which holds height then width. */
function jpegSize(content: Buffer): PixelSize | undefined {
  let offset = 2;
  while (offset + 9 < content.length) {
    if (content[offset] !== 0xff) return undefined;
    const marker = content[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) return { height: content.readUInt16BE(offset + 5), width: content.readUInt16BE(offset + 7) };
    offset += 2 + content.readUInt16BE(offset + 2);
  }
  return undefined;
}

/** The size the header declares; undefined when it cannot be read (the image is then refused). */
export function declaredPixelSize(content: Buffer, mime: string): PixelSize | undefined {
  if (mime === 'image/png') return pngSize(content);
  if (mime === 'image/jpeg') return jpegSize(content);
  return undefined;
}

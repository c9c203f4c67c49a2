// What an uploaded image is, judged by its bytes and never by the Content-Type or the file name: the
// signature (file-type) and whether it is an SVG (a document that can carry scripts, refused everywhere).
// Used by the operator's logo (src/settings/logo.ts) and activity photos (src/catalog/photos). Its size
// in pixels is not read here: a photo's is judged by the decoder itself (catalog/photos/resize-worker.ts),
// since a parse of our own can read another header than the decoder does.
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

// What a waiver file may be: a photo or scan (JPEG, PNG, WebP, HEIC/HEIF, as phones take them) or a PDF.
// The bytes decide, not the Content-Type header: `file-type` reads the file's signature (its magic
// numbers), so an HTML page or an SVG sent as image/png is refused, and what is stored and later served
// is the type the content really has.
import { fileTypeFromBuffer } from 'file-type';
import { DomainError } from '../http/errors.js';

/** The accepted types, by the MIME type file-type names, with the extension a download gets. */
export const ALLOWED_FILE_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/** How the types are named to people: in error messages and the API reference. */
export const ALLOWED_FILE_TYPES_TEXT = 'a JPEG, PNG, WebP or HEIC/HEIF image, or a PDF';

// Declared types that name an accepted type by another name, or say nothing about it.
const DECLARED_ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };
const UNSPECIFIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export class UnsupportedFileType extends DomainError {
  constructor(message: string) {
    super('unsupported-media-type', message);
  }
}

/**
 * The file's type, from its bytes. A declared Content-Type must be one of the accepted types (or say
 * nothing, application/octet-stream); when it names another accepted type than the bytes have (a PNG
 * sent as image/jpeg), the bytes win.
 */
export async function detectFileType(content: Buffer, declared: string | undefined): Promise<string> {
  const declaredType = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const named = DECLARED_ALIASES[declaredType] ?? declaredType;
  if (!UNSPECIFIC.has(named) && !(named in ALLOWED_FILE_TYPES)) {
    throw new UnsupportedFileType(`Content-Type ${declaredType} is not accepted: a waiver file must be ${ALLOWED_FILE_TYPES_TEXT}`);
  }
  const detected = (await fileTypeFromBuffer(content))?.mime;
  if (detected === undefined || !(detected in ALLOWED_FILE_TYPES)) {
    throw new UnsupportedFileType(`The file's content is not ${ALLOWED_FILE_TYPES_TEXT}${detected ? ` (it is ${detected})` : ''}`);
  }
  return detected;
}

/** The type to serve a stored file as: its own when accepted, else (a file stored before the allow-list) bytes. */
export function servedType(stored: string): string {
  return stored in ALLOWED_FILE_TYPES ? stored : 'application/octet-stream';
}

// Files for file-upload questions. A booking's file answer names the FileID; the file itself is kept in the
// database with the operator's other data (at most 10 MiB each), so backups and tenancy cover it too.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ValidationFailed } from '../http/errors.js';
import { newFileId } from '../ids.js';
import type { Upload } from './schemas.js';
import { insertUpload } from './store.js';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export async function storeUpload(
  db: Kysely<Database>,
  operatorId: number,
  contentType: string | undefined,
  content: Buffer | undefined,
): Promise<Upload> {
  if (!content || content.length === 0) throw ValidationFailed.field('Body', 'The request body must be the file, and not empty');
  const type = contentType?.trim() || DEFAULT_CONTENT_TYPE;
  if (type.length > 255) throw ValidationFailed.field('Content-Type', 'Content-Type must be at most 255 characters');
  const row = await insertUpload(db, {
    operator_id: operatorId,
    public_id: newFileId(),
    content_type: type,
    size: content.length,
    content,
    created_at: Date.now(),
  });
  return { FileID: row.public_id, ContentType: row.content_type, Size: row.size };
}

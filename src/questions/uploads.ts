// Files that answer file-upload questions: a photo ID, a medical certificate. A booking's file answer names
// the FileID; the file is kept in the database with the operator's other data (at most 10 MiB each), so
// that backups and tenancy cover it too.
//
// What bounds them (docs/security/hygiene.md): only images and PDFs, judged by their bytes
// (file-types.ts); each belongs to the key or shop basket that uploaded it, and only bookings through
// that holder may name it; quotas per API key, per basket and per guest address; and a file that no
// confirmed booking names is deleted after UPLOAD_UNATTACHED_HOURS (upload-sweep.ts), or that long after
// the hold that named it expired. A hold does not take a file off its uploader's quota: else a client
// could keep any number of files by naming each in a hold that it then lets lapse.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { UploadLimits } from '../config.js';
import type { Db, Tx } from '../db/connection.js';
import { Conflict, DomainError, ValidationFailed } from '../http/errors.js';
import { newFileId } from '../lib/ids.js';
import { detectFileType } from './file-types.js';
import type { Upload } from './schemas.js';
import { holdings, insertUpload, lockQuota, type QuotaHolder } from './upload-store.js';
import { nowMillis, type UnixMillis } from '../lib/clock.js';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Who uploads: a partner's API key (with its marketplace), or a guest through a shop basket or their booking's link. */
export type UploadOwner =
  | { operatorId: number; apiKeyId: number; partner: string | null }
  | { operatorId: number; basketId: number; clientFingerprint: string }
  | { operatorId: number; bookingId: number; clientFingerprint: string };

export class UploadQuotaExceeded extends DomainError {
  constructor(
    message: string,
    /** Seconds until the oldest counted file is swept, so that room frees up. */
    readonly retryAfterSeconds: number,
  ) {
    super('quota-exceeded', message);
  }
}

const MIB = 1024 * 1024;
const describe = (files: number, bytes: number) => `${files} file${files === 1 ? '' : 's'} or ${Math.round(bytes / MIB)} MiB`;

/**
 * Refuses the upload when the holder would hold more than its quota. An outstanding quota (unattached
 * files of a key or address, those named by holds among them) frees up as files are named by confirmed
 * bookings or swept: 429 with Retry-After. A basket's quota counts every file it ever uploaded, so waiting
 * does not help: 409.
 */
interface Quota {
  holder: QuotaHolder;
  limit: { files: number; bytes: number };
  /** Named in the message: "This API key". */
  who: string;
  /** Counts only the files no confirmed booking names yet (else every file). */
  outstanding: boolean;
}

async function checkQuota(tx: Tx, { holder, limit, who, outstanding }: Quota, size: number, unattachedHours: number, now: UnixMillis): Promise<void> {
  await lockQuota(tx, holder);
  const held = await holdings(tx, holder, outstanding);
  if (held.files + 1 <= limit.files && held.bytes + size <= limit.bytes) return;
  if (!outstanding)
    throw new Conflict(
      `${who} has uploaded as much as a basket may (${describe(limit.files, limit.bytes)})${who === 'This basket' ? '; open a new basket for more' : ''}`,
    );
  const freedAt = (held.oldest ?? now) + unattachedHours * 3_600_000;
  throw new UploadQuotaExceeded(
    `${who} already holds ${describe(held.files, held.bytes)} that no confirmed booking names, the most it may (${describe(limit.files, limit.bytes)}). ` +
      'Confirm the bookings that name them, or wait until unused files are deleted.',
    Math.max(1, Math.ceil((freedAt - now) / 1000)),
  );
}

/**
 * Stores an upload for its owner, after checking its content (422 empty, 415 not an accepted type) and
 * the owner's quotas, in one write transaction.
 */
export async function storeUpload(
  db: Db,
  owner: UploadOwner,
  contentType: string | undefined,
  content: Buffer | undefined,
  limits: UploadLimits,
): Promise<Upload> {
  if (!content || content.length === 0) throw ValidationFailed.field('Body', 'The request body must be the file, and not empty');
  const type = await detectFileType(content, contentType);
  const now = nowMillis();
  const hours = limits.unattachedHours;
  const row = await db.write(async (tx) => {
    const quotas: Quota[] =
      'apiKeyId' in owner
        ? [{ holder: { column: 'api_key_id', value: owner.apiKeyId }, limit: limits.perKey, who: 'This API key', outstanding: true }]
        : [
            // Always in this order (basket or booking, then address), so that two uploads never wait for each other's lock.
            'basketId' in owner
              ? { holder: { column: 'basket_id', value: owner.basketId }, limit: limits.perBasket, who: 'This basket', outstanding: false }
              : // A booking's link may upload what a basket may: its waiver needs no more.
                { holder: { column: 'booking_id', value: owner.bookingId }, limit: limits.perBasket, who: 'This booking', outstanding: false },
            {
              holder: { column: 'client_fingerprint', value: owner.clientFingerprint },
              limit: limits.perAddress,
              who: 'This address',
              outstanding: true,
            },
          ];
    for (const quota of quotas) await checkQuota(tx, quota, content.length, hours, now);
    return insertUpload(tx, {
      operator_id: owner.operatorId,
      public_id: newFileId(),
      content_type: type,
      size: content.length,
      content,
      created_at: now,
      api_key_id: 'apiKeyId' in owner ? owner.apiKeyId : null,
      partner: 'apiKeyId' in owner ? owner.partner : null,
      basket_id: 'basketId' in owner ? owner.basketId : null,
      booking_id: 'bookingId' in owner ? owner.bookingId : null,
      client_fingerprint: 'clientFingerprint' in owner ? owner.clientFingerprint : null,
      attached_at: null,
    });
  });
  return { FileID: row.public_id, ContentType: row.content_type, Size: row.size };
}

/**
 * For an upload route's own plugin scope: the body is the file's raw bytes whatever its Content-Type (an
 * uploaded JSON file stays bytes), up to 10 MiB; larger bodies are 413 from Fastify's limit.
 */
export function acceptRawUploads(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
}

/** Answers a stored upload (201), or adds Retry-After to a quota refusal before it becomes a problem. */
export async function answerUpload(reply: FastifyReply, store: () => Promise<Upload>): Promise<FastifyReply> {
  try {
    return reply.code(201).send({ data: await store() });
  } catch (error) {
    if (error instanceof UploadQuotaExceeded) reply.header('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}

// SQL of uploads: storing them with their owner, what an owner holds (for quotas), which files a booking
// may name, keeping the files a booking names (for good once it is confirmed, while it is on hold until the
// hold's expiry), sweeping unattached ones, and reading a booking's file back.
import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';
import type { Database, UploadTable } from '../db/schema.js';
import { answersWithFile } from './view.js';
import { toMillis, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

export type UploadRow = Selectable<UploadTable>;
export type NewUploadRow = Omit<Insertable<UploadTable>, 'id'>;
export type UploadSummary = Omit<UploadRow, 'content'>;

const SUMMARY_COLUMNS = [
  'id',
  'operator_id',
  'public_id',
  'content_type',
  'size',
  'created_at',
  'api_key_id',
  'partner',
  'basket_id',
  'booking_id',
  'client_fingerprint',
  'attached_at',
  'held_until',
] as const;

export async function insertUpload(tx: Tx, row: NewUploadRow): Promise<UploadSummary> {
  return tx.insertInto('uploads').values(row).returning(SUMMARY_COLUMNS).executeTakeFirstOrThrow();
}

/** Who a quota counts: the files of an API key, of a basket, or of a client address. */
export type QuotaHolder =
  | { column: 'api_key_id'; value: number }
  | { column: 'basket_id'; value: number }
  | { column: 'booking_id'; value: number }
  | { column: 'client_fingerprint'; value: string };

const QUOTA_LOCK = 74_231_009;

/**
 * On PostgreSQL, serialises the uploads of one holder until the transaction ends, so that two uploads
 * at once cannot both fit the last room of a quota. (SQLite runs one write transaction at a time.)
 */
export async function lockQuota(tx: Tx, holder: QuotaHolder): Promise<void> {
  if (dialectOf(tx) !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${`${holder.column}:${holder.value}`}))`.execute(tx);
}

export interface Holdings {
  files: number;
  bytes: number;
  /** Unix ms of the oldest counted file, null when none. */
  oldest: number | null;
}

/**
 * What a holder holds: every file, or only those no confirmed booking uses yet (a file a hold names is
 * still its uploader's). `oldest` is when the first of them may be swept, less the retention: its upload,
 * or the expiry of a hold that named it if later.
 */
export async function holdings(tx: Tx, holder: QuotaHolder, onlyUnattached: boolean): Promise<Holdings> {
  const sweepable = sql<number>`CASE WHEN held_until > created_at THEN held_until ELSE created_at END`;
  let query = tx
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes'), eb.fn.min<number>(sweepable).as('oldest')])
    .where(holder.column, '=', holder.value as never);
  if (onlyUnattached) query = query.where('attached_at', 'is', null);
  const row = await query.executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0), oldest: row.oldest === null ? null : Number(row.oldest) };
}

/**
 * Whose files a booking may name: a partner booking the files of its marketplace's keys, a basket item
 * the files of its basket, a point-of-sale booking (the operator itself) any file its keys uploaded, and
 * a guest completing their booking's waiver the files uploaded through that booking's link.
 */
export type FileScope =
  | { operatorId: number; by: 'partner'; partner: string }
  | { operatorId: number; by: 'basket'; basketId: number }
  | { operatorId: number; by: 'booking'; bookingId: number }
  | { operatorId: number; by: 'operator' };

/** Which of these FileIDs the scope may name (another operator's, basket's or marketplace's are not among them). */
export async function findUsableFileIds(db: Kysely<Database>, scope: FileScope, fileIds: string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  let query = db.selectFrom('uploads').select('public_id').where('operator_id', '=', scope.operatorId).where('public_id', 'in', fileIds);
  if (scope.by === 'partner') query = query.where('partner', '=', scope.partner).where('basket_id', 'is', null);
  else if (scope.by === 'basket') query = query.where('basket_id', '=', scope.basketId);
  else if (scope.by === 'booking') query = query.where('booking_id', '=', scope.bookingId);
  else query = query.where('api_key_id', 'is not', null);
  return new Set((await query.execute()).map((row) => row.public_id));
}

/**
 * How a booking keeps the files it names: a confirmed one attaches them for good (they no longer count
 * against their uploader's quota), a hold only keeps them from the sweep until it expires (they still
 * count). A hold that ends (lapses, is released or cancelled) thus needs no write: its files are swept
 * UPLOAD_UNATTACHED_HOURS after its expiry, like any unused upload. Cancelled and expired bookings keep
 * nothing new.
 */
type FileUse = { attachedAt: UnixMillis } | { heldUntil: UnixMillis };

function fileUseOf(booking: { status: string; hold_expires_at: UnixSeconds | null }, now: UnixMillis): FileUse | undefined {
  if (booking.status === 'confirmed') return { attachedAt: now };
  if (booking.status === 'on_hold' && booking.hold_expires_at !== null) return { heldUntil: toMillis(booking.hold_expires_at) };
  return undefined;
}

/**
 * Keeps the files for the booking's use (never shortening a hold's keep, never moving an attachment).
 * Answers which files were there: on PostgreSQL a sweep may have deleted one since the booking checked
 * it; a file updated here is locked against the sweep until this transaction ends, and the sweep's
 * DELETE checks the row again once it may (attached_at, held_until), so it then keeps the file.
 */
async function useUploads(tx: Tx, operatorId: number, fileIds: string[], use: FileUse): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await tx
    .updateTable('uploads')
    .set((eb) =>
      'attachedAt' in use
        ? { attached_at: eb.fn.coalesce('attached_at', eb.val(use.attachedAt)) }
        : {
            held_until: eb
              .case()
              .when(eb.fn.coalesce('held_until', eb.lit(0)), '<', use.heldUntil)
              .then(use.heldUntil)
              .else(eb.ref('held_until'))
              .end(),
          },
    )
    .where('operator_id', '=', operatorId)
    .where('public_id', 'in', [...fileIds].sort())
    .returning('public_id')
    .execute();
  return new Set(rows.map((row) => row.public_id));
}

/** The FileIDs the booking's answers to file questions name. */
async function fileAnswersOf(tx: Tx, bookingId: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('waiver_answers')
    .innerJoin('questions', 'questions.id', 'waiver_answers.question_id')
    .select(['waiver_answers.answer', 'questions.type', 'questions.requires_file_upload'])
    .where('waiver_answers.booking_id', '=', bookingId)
    .execute();
  return rows.filter(answersWithFile).map((row) => row.answer);
}

/**
 * Keeps the files a booking names as its status asks (fileUseOf), whenever that changes: when it is
 * placed, confirmed, its hold extended or its answers changed. `fileIds` are the files just named; without
 * them, every file its answers name. Answers those of `fileIds` that are gone (deleted by the sweep
 * before the booking named them): the caller refuses the booking or the answers.
 */
export async function keepBookingFiles(
  tx: Tx,
  booking: { id: number; operator_id: number; status: string; hold_expires_at: UnixSeconds | null },
  now: UnixMillis,
  fileIds?: string[],
): Promise<string[]> {
  const use = fileUseOf(booking, now);
  if (!use) return [];
  const named = fileIds ?? (await fileAnswersOf(tx, booking.id));
  const kept = await useUploads(tx, booking.operator_id, named, use);
  return named.filter((fileId) => !kept.has(fileId));
}

/**
 * Deletes up to `limit` unattached files created before `cutoff` that no hold has named since (a hold
 * expiring after the cutoff keeps them: it may still be confirmed, or only lapsed lately). The condition
 * is checked again by the DELETE itself, so a file that a booking attached or held meanwhile stays.
 */
export async function deleteUnattachedBefore(tx: Tx, cutoff: UnixMillis, limit: number): Promise<number> {
  const sweepable = (eb: ExpressionBuilder<Database, 'uploads'>) =>
    eb.and([eb('attached_at', 'is', null), eb('created_at', '<', cutoff), eb.or([eb('held_until', 'is', null), eb('held_until', '<', cutoff)])]);
  const due = await tx.selectFrom('uploads').select('id').where(sweepable).orderBy('created_at').limit(limit).execute();
  if (due.length === 0) return 0;
  const result = await tx
    .deleteFrom('uploads')
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .where(sweepable)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The file, if the operator's booking (`bookingId`, found by the caller) answered a question with it. */
export async function findAnsweredFile(db: Kysely<Database>, operatorId: number, bookingId: number, fileId: string): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll('uploads')
    .where('uploads.operator_id', '=', operatorId)
    .where('uploads.public_id', '=', fileId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('waiver_answers')
          .select('waiver_answers.booking_id')
          .where('waiver_answers.booking_id', '=', bookingId)
          .where('waiver_answers.answer', '=', fileId),
      ),
    )
    .executeTakeFirst();
}

/** The files of these FileIDs, without their bytes. */
export async function findUploadSummaries(db: Kysely<Database>, operatorId: number, fileIds: string[]): Promise<UploadSummary[]> {
  if (fileIds.length === 0) return [];
  return db.selectFrom('uploads').select(SUMMARY_COLUMNS).where('operator_id', '=', operatorId).where('public_id', 'in', fileIds).execute();
}

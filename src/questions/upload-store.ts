// SQL of uploads: storing them with their owner, what an owner holds (for quotas), which files a booking
// may name, marking files attached when a booking names them, sweeping unattached ones, and reading a
// booking's file back.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';
import type { Database, UploadTable } from '../db/schema.js';

export type UploadRow = Selectable<UploadTable>;
export type NewUploadRow = Omit<Insertable<UploadTable>, 'id'>;
export type UploadSummary = Omit<UploadRow, 'content'>;

const SUMMARY_COLUMNS = ['id', 'operator_id', 'public_id', 'content_type', 'size', 'created_at', 'api_key_id', 'partner', 'basket_id', 'client_fingerprint', 'attached_at'] as const;

export async function insertUpload(tx: Tx, row: NewUploadRow): Promise<UploadSummary> {
  return tx.insertInto('uploads').values(row).returning(SUMMARY_COLUMNS).executeTakeFirstOrThrow();
}

/** Who a quota counts: the files of an API key, of a basket, or of a client address. */
export type QuotaHolder = { column: 'api_key_id'; value: number } | { column: 'basket_id'; value: number } | { column: 'client_fingerprint'; value: string };

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

/** What a holder holds: every file, or only those no booking uses yet. */
export async function holdings(tx: Tx, holder: QuotaHolder, onlyUnattached: boolean): Promise<Holdings> {
  let query = tx
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes'), eb.fn.min<number>('created_at').as('oldest')])
    .where(holder.column, '=', holder.value as never);
  if (onlyUnattached) query = query.where('attached_at', 'is', null);
  const row = await query.executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0), oldest: row.oldest === null ? null : Number(row.oldest) };
}

/**
 * Whose files a booking may name: a partner booking the files of its marketplace's keys, a basket item
 * the files of its basket, a point-of-sale booking (the operator itself) any file its keys uploaded.
 */
export type FileScope =
  | { operatorId: number; by: 'partner'; partner: string }
  | { operatorId: number; by: 'basket'; basketId: number }
  | { operatorId: number; by: 'operator' };

/** Which of these FileIDs the scope may name (another operator's, basket's or marketplace's are not among them). */
export async function findUsableFileIds(db: Kysely<Database>, scope: FileScope, fileIds: string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  let query = db.selectFrom('uploads').select('public_id').where('operator_id', '=', scope.operatorId).where('public_id', 'in', fileIds);
  if (scope.by === 'partner') query = query.where('partner', '=', scope.partner).where('basket_id', 'is', null);
  else if (scope.by === 'basket') query = query.where('basket_id', '=', scope.basketId);
  else query = query.where('api_key_id', 'is not', null);
  return new Set((await query.execute()).map((row) => row.public_id));
}

/**
 * Marks the files attached (a booking's answer names them), so that the sweep keeps them. Answers which
 * files were there: on PostgreSQL a sweep may have deleted one since the booking checked it; a file
 * attached here is locked against the sweep until this transaction ends.
 */
export async function attachUploads(tx: Tx, operatorId: number, fileIds: string[], now: number): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await tx
    .updateTable('uploads')
    .set((eb) => ({ attached_at: eb.fn.coalesce('attached_at', eb.val(now)) }))
    .where('operator_id', '=', operatorId)
    .where('public_id', 'in', [...fileIds].sort())
    .returning('public_id')
    .execute();
  return new Set(rows.map((row) => row.public_id));
}

/**
 * Deletes up to `limit` unattached files created before `cutoff`. The condition is checked again by the
 * DELETE itself, so a file that a booking attached meanwhile stays.
 */
export async function deleteUnattachedBefore(tx: Tx, cutoff: number, limit: number): Promise<number> {
  const due = await tx.selectFrom('uploads').select('id').where('attached_at', 'is', null).where('created_at', '<', cutoff).orderBy('created_at').limit(limit).execute();
  if (due.length === 0) return 0;
  const result = await tx
    .deleteFrom('uploads')
    .where('id', 'in', due.map((row) => row.id))
    .where('attached_at', 'is', null)
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The file, if the operator's booking answered a question with it. */
export async function findAnsweredFile(db: Kysely<Database>, operatorId: number, reference: string, fileId: string): Promise<UploadRow | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll('uploads')
    .where('uploads.operator_id', '=', operatorId)
    .where('uploads.public_id', '=', fileId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('waiver_answers')
          .innerJoin('bookings', 'bookings.id', 'waiver_answers.booking_id')
          .select('waiver_answers.booking_id')
          .where('bookings.operator_id', '=', operatorId)
          .where('bookings.reference', '=', reference)
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

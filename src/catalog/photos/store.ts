// SQL of activity photos: the photo rows (in each activity's order) and their resized JPEGs.
import type { Kysely, Selectable } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { ActivityPhotoTable, Database } from '../../db/schema.js';
import type { ResizedPhoto } from './resize.js';

export type PhotoRow = Selectable<ActivityPhotoTable>;
export interface PhotoWithSizes extends PhotoRow {
  sizes: { width: number; height: number }[];
}

/** The photos of these activities in their order, each with the widths it was resized to. */
export async function photosByActivity(db: Kysely<Database>, activityIds: number[]): Promise<Map<number, PhotoWithSizes[]>> {
  const found = new Map<number, PhotoWithSizes[]>();
  if (activityIds.length === 0) return found;
  const rows = await db.selectFrom('activity_photos').selectAll().where('activity_id', 'in', activityIds).orderBy('position').orderBy('id').execute();
  if (rows.length === 0) return found;
  const sizes = await db
    .selectFrom('activity_photo_sizes')
    .select(['photo_id', 'width', 'height'])
    .where(
      'photo_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('width')
    .execute();
  for (const row of rows) {
    const list = found.get(row.activity_id) ?? [];
    list.push({ ...row, sizes: sizes.filter((size) => size.photo_id === row.id).map(({ width, height }) => ({ width, height })) });
    found.set(row.activity_id, list);
  }
  return found;
}

export async function countPhotos(tx: Tx, activityId: number): Promise<{ count: number; lastPosition: number }> {
  const row = await tx
    .selectFrom('activity_photos')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('position').as('last')])
    .where('activity_id', '=', activityId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), lastPosition: row.last === null ? -1 : Number(row.last) };
}

export async function insertPhoto(tx: Tx, photo: Omit<PhotoRow, 'id'>, sizes: ResizedPhoto[]): Promise<PhotoRow> {
  const row = await tx.insertInto('activity_photos').values(photo).returningAll().executeTakeFirstOrThrow();
  await tx
    .insertInto('activity_photo_sizes')
    .values(sizes.map((size) => ({ photo_id: row.id, width: size.width, height: size.height, content: size.content })))
    .execute();
  return row;
}

export async function hasPhoto(tx: Kysely<Database>, activityId: number, digest: string): Promise<boolean> {
  const row = await tx
    .selectFrom('activity_photos')
    .select('id')
    .where('activity_id', '=', activityId)
    .where('digest', '=', digest)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findPhoto(db: Kysely<Database>, activityId: number, photoId: number): Promise<PhotoRow | undefined> {
  return db.selectFrom('activity_photos').selectAll().where('id', '=', photoId).where('activity_id', '=', activityId).executeTakeFirst();
}

export async function updatePhotoAlt(tx: Tx, photoId: number, alt: string): Promise<void> {
  await tx.updateTable('activity_photos').set({ alt }).where('id', '=', photoId).execute();
}

export async function deletePhoto(tx: Tx, photoId: number): Promise<void> {
  // The sizes first: SQLite enforces no cascade unless foreign keys are switched on.
  await tx.deleteFrom('activity_photo_sizes').where('photo_id', '=', photoId).execute();
  await tx.deleteFrom('activity_photos').where('id', '=', photoId).execute();
}

/** A photo's resized JPEG by the public address's parts: the operator, the photo, its digest and the width. */
export async function readPhotoSize(
  db: Kysely<Database>,
  address: { operatorId: number; photoId: number; digest: string; width: number },
): Promise<Buffer | undefined> {
  const { operatorId, photoId, digest, width } = address;
  const row = await db
    .selectFrom('activity_photo_sizes')
    .innerJoin('activity_photos', 'activity_photos.id', 'activity_photo_sizes.photo_id')
    .select('activity_photo_sizes.content')
    .where('activity_photos.id', '=', photoId)
    .where('activity_photos.operator_id', '=', operatorId)
    .where('activity_photos.digest', '=', digest)
    .where('activity_photo_sizes.width', '=', width)
    .executeTakeFirst();
  return row?.content;
}

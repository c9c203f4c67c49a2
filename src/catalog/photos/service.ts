// Activity photos: uploaded by staff (bytes checked, resized once), shown on the booking pages, in the
// partner API's products and OCTo's (octo/content). Each change touches the activity (its UpdatedAt, a
// product.updated event for partners) and writes an audit entry, in one transaction.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { audit } from '../../audit/log.js';
import { recordProductEvent } from '../../events/outbox.js';
import { Conflict, NotFound } from '../../http/errors.js';
import { findActivity, touchActivity, type ActivityRow } from '../store.js';
import { checkPhotoBytes, MAX_PHOTOS_PER_ACTIVITY } from './rules.js';
import { resizedCopies } from './resize.js';
import type { ActivityPhoto, ChangePhotoBody } from './schemas.js';
import {
  countPhotos,
  deletePhoto,
  findPhoto,
  hasPhoto,
  insertPhoto,
  photosByActivity,
  updatePhotoAlt,
  type PhotoRow,
  type PhotoWithSizes,
} from './store.js';
import { nowMillis } from '../../lib/clock.js';

/** The public address of one size: the photo's ID and digest name it, so its bytes never change. */
export const photoPath = (row: Pick<PhotoRow, 'operator_id' | 'id' | 'digest'>, width: number) =>
  `/photos/${row.operator_id}/${row.id}-${row.digest}-${width}.jpg`;

export function toActivityPhoto(row: PhotoWithSizes, publicUrl: string): ActivityPhoto {
  const sizes = row.sizes.map((size) => ({ Width: size.width, Height: size.height, Url: `${publicUrl}${photoPath(row, size.width)}` }));
  return {
    ID: row.id,
    Alt: row.alt,
    Width: row.width,
    Height: row.height,
    Url: sizes.at(-1)?.Url ?? '',
    Sizes: sizes,
    Srcset: sizes.map((size) => `${size.Url} ${size.Width}w`).join(', '),
  };
}

/** The photos of these activities as the API shows them, by activity row ID. */
export async function activityPhotos(db: Kysely<Database>, activityIds: number[], publicUrl: string): Promise<Map<number, ActivityPhoto[]>> {
  const rows = await photosByActivity(db, activityIds);
  return new Map([...rows].map(([activityId, photos]) => [activityId, photos.map((photo) => toActivityPhoto(photo, publicUrl))]));
}

async function requireActivityRow(db: Kysely<Database>, operatorId: number, activityId: string): Promise<ActivityRow> {
  const row = await findActivity(db, operatorId, activityId);
  if (!row) throw new NotFound(`No activity ${activityId}`);
  return row;
}

/** The activity, locked until the transaction ends (two uploads count the photos one after the other). */
async function touched(tx: Tx, operatorId: number, row: ActivityRow): Promise<ActivityRow> {
  const changed = await touchActivity(tx, operatorId, row.id);
  if (!changed) throw new NotFound(`No activity ${row.public_id}`);
  return changed;
}

async function photoOf(db: Kysely<Database>, row: ActivityRow, photoId: number, publicUrl: string): Promise<ActivityPhoto> {
  const photo = (await activityPhotos(db, [row.id], publicUrl)).get(row.id)?.find((candidate) => candidate.ID === photoId);
  if (!photo) throw new NotFound(`No photo ${photoId} of activity ${row.public_id}`);
  return photo;
}

export async function addPhoto(
  db: Db,
  operatorId: number,
  activityId: string,
  content: Buffer,
  alt: string,
  publicUrl: string,
): Promise<ActivityPhoto> {
  const row = await requireActivityRow(db.kysely, operatorId, activityId);
  const checked = await checkPhotoBytes(content);
  const digest = createHash('sha256').update(content).digest('base64url').slice(0, 22);
  if (await hasPhoto(db.kysely, row.id, digest)) throw new Conflict('The activity already has this photo');
  // Decoding and resizing take a while: done before the transaction, so no lock waits for them (the
  // transaction asks again whether the photo is new, and counts).
  const { width, height, sizes } = await resizedCopies(content);
  const photoId = await db.write(async (tx) => {
    const activity = await touched(tx, operatorId, row);
    const { count, lastPosition } = await countPhotos(tx, activity.id);
    if (count >= MAX_PHOTOS_PER_ACTIVITY)
      throw new Conflict(`The activity has ${count} photos, the most it may have (${MAX_PHOTOS_PER_ACTIVITY}): remove one first`);
    if (await hasPhoto(tx, activity.id, digest)) throw new Conflict('The activity already has this photo');
    const photo = await insertPhoto(
      tx,
      {
        operator_id: operatorId,
        activity_id: activity.id,
        digest,
        alt: alt.trim(),
        position: lastPosition + 1,
        width,
        height,
        created_at: nowMillis(),
      },
      sizes,
    );
    await audit(tx, {
      operatorId,
      action: 'activity.photo-add',
      resource: { type: 'activity', id: activityId },
      after: { PhotoID: photo.id, Alt: photo.alt, ContentType: checked.mime, Size: content.length, Width: width, Height: height },
    });
    await recordProductEvent(tx, activity, 'product.updated');
    return photo.id;
  });
  return photoOf(db.kysely, row, photoId, publicUrl);
}

export async function changePhoto(
  db: Db,
  operatorId: number,
  activityId: string,
  photoId: number,
  body: ChangePhotoBody,
  publicUrl: string,
): Promise<ActivityPhoto> {
  const row = await requireActivityRow(db.kysely, operatorId, activityId);
  await db.write(async (tx) => {
    const photo = await findPhoto(tx, row.id, photoId);
    if (!photo) throw new NotFound(`No photo ${photoId} of activity ${activityId}`);
    const activity = await touched(tx, operatorId, row);
    await updatePhotoAlt(tx, photoId, body.Alt.trim());
    await audit(tx, {
      operatorId,
      action: 'activity.photo-update',
      resource: { type: 'activity', id: activityId },
      before: { PhotoID: photoId, Alt: photo.alt },
      after: { PhotoID: photoId, Alt: body.Alt.trim() },
    });
    await recordProductEvent(tx, activity, 'product.updated');
  });
  return photoOf(db.kysely, row, photoId, publicUrl);
}

export async function removePhoto(db: Db, operatorId: number, activityId: string, photoId: number): Promise<void> {
  const row = await requireActivityRow(db.kysely, operatorId, activityId);
  await db.write(async (tx) => {
    const photo = await findPhoto(tx, row.id, photoId);
    if (!photo) throw new NotFound(`No photo ${photoId} of activity ${activityId}`);
    const activity = await touched(tx, operatorId, row);
    await deletePhoto(tx, photoId);
    await audit(tx, {
      operatorId,
      action: 'activity.photo-delete',
      resource: { type: 'activity', id: activityId },
      before: { PhotoID: photoId, Alt: photo.alt, Width: photo.width, Height: photo.height },
    });
    await recordProductEvent(tx, activity, 'product.updated');
  });
}

// The operator's Viator connection (docs/channels/viator.md): set up on the first change, switched on and
// off, the key Viator sends rotated (shown once), Viator's supplier ID and its key for the notification
// endpoint (sealed), and which activities and ticket types are offered. Every change writes an audit
// entry; keys never reach it.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { audit } from '../audit/log.js';
import { findActivity, listActivities, type ActivityRow } from '../catalog/index.js';
import { listTicketTypes, ticketTypesByActivity, type TicketTypeRow } from '../catalog/index.js';
import { generateKey } from './credentials.js';
import { decideBands } from './age-bands.js';
import {
  bandChoices,
  findConnection,
  findOptionIdTaken,
  insertConnection,
  listProductMappings,
  listRequests,
  setBandChoice,
  setProductMapping,
  updateConnection,
  type ConnectionRow,
} from './store.js';
import type { OutboundBody, ProductMappingBody, UpdateConnectionBody, ViatorConnection, ViatorProductMapping } from './admin-schemas.js';
import { nowMillis, type UnixMillis } from '../lib/clock.js';

export const OUTBOUND_KEY_PURPOSE = 'viator-outbound-key';
const LISTED = 50;

export interface ConnectionSettings {
  publicUrl: string;
  viatorHoldMinutes: number;
  viatorApiUrl: string;
}

const iso = (ms: UnixMillis) => new Date(Number(ms)).toISOString();

/** The settings audit entries show: never a key. */
const auditView = (row: ConnectionRow) => ({
  Enabled: row.enabled === 1,
  KeyHint: row.key_hint,
  SupplierID: row.supplier_id,
  OutboundKeySet: row.outbound_key_sealed !== null,
});

export async function getConnection(db: Kysely<Database>, settings: ConnectionSettings, operatorId: number, key?: string): Promise<ViatorConnection> {
  const row = await findConnection(db, operatorId);
  const requests = row ? await listRequests(db, operatorId, LISTED) : [];
  return {
    Configured: row !== undefined,
    Enabled: row?.enabled === 1,
    EndpointURL: `${settings.publicUrl}/viator`,
    KeyHint: row?.key_hint ?? null,
    ...(key !== undefined && { Key: key }),
    SupplierID: row?.supplier_id ?? null,
    HoldMinutes: settings.viatorHoldMinutes,
    OutboundKeySet: row?.outbound_key_sealed != null,
    NotificationsURL: `${settings.viatorApiUrl}/v2/notification/events`,
    Requests: requests.map((r) => ({
      Endpoint: r.endpoint,
      ProductOptionID: r.product_option_id,
      Outcome: r.outcome,
      DurationMs: r.duration_ms,
      At: iso(r.at),
    })),
  };
}

/** The connection, made (switched off, with a fresh key) when there is none yet; the key when it was made. */
async function ensureConnection(tx: Tx, operatorId: number): Promise<{ row: ConnectionRow; key?: string }> {
  const existing = await findConnection(tx, operatorId);
  if (existing) return { row: existing };
  const fresh = generateKey();
  const now = nowMillis();
  const row = await insertConnection(tx, {
    operator_id: operatorId,
    enabled: 0,
    key_hash: fresh.keyHash,
    key_hint: fresh.hint,
    created_at: now,
    updated_at: now,
  });
  await audit(tx, { operatorId, action: 'viator.create', resource: { type: 'viator', id: operatorId }, after: auditView(row) });
  return { row, key: fresh.key };
}

export async function updateConnectionSettings(
  db: Db,
  settings: ConnectionSettings,
  operatorId: number,
  body: UpdateConnectionBody,
): Promise<ViatorConnection> {
  const key = await db.write(async (tx) => {
    const { row, key } = await ensureConnection(tx, operatorId);
    const after = await updateConnection(tx, operatorId, {
      ...(body.Enabled !== undefined && { enabled: body.Enabled ? 1 : 0 }),
      ...(body.SupplierID !== undefined && { supplier_id: body.SupplierID === null ? null : String(BigInt(body.SupplierID)) }),
    });
    await audit(tx, {
      operatorId,
      action: 'viator.update',
      resource: { type: 'viator', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return key;
  });
  return getConnection(db.kysely, settings, operatorId, key);
}

/** A new key for Viator to send: the old one stops working at once. The key is in this answer only. */
export async function rotateKey(db: Db, settings: ConnectionSettings, operatorId: number): Promise<ViatorConnection> {
  const key = await db.write(async (tx) => {
    const { row, key } = await ensureConnection(tx, operatorId);
    if (key !== undefined) return key;
    const fresh = generateKey();
    const after = await updateConnection(tx, operatorId, { key_hash: fresh.keyHash, key_hint: fresh.hint });
    await audit(tx, {
      operatorId,
      action: 'viator.rotate',
      resource: { type: 'viator', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return fresh.key;
  });
  return getConnection(db.kysely, settings, operatorId, key);
}

export async function setOutboundKey(
  db: Db,
  keys: InstanceKeys,
  settings: ConnectionSettings,
  operatorId: number,
  body: OutboundBody | null,
): Promise<ViatorConnection> {
  const key = await db.write(async (tx) => {
    const { row, key } = await ensureConnection(tx, operatorId);
    const after = await updateConnection(tx, operatorId, { outbound_key_sealed: body ? keys.seal(OUTBOUND_KEY_PURPOSE, body.Key) : null });
    await audit(tx, {
      operatorId,
      action: body ? 'viator.outbound-set' : 'viator.outbound-remove',
      resource: { type: 'viator', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return key;
  });
  return getConnection(db.kysely, settings, operatorId, key);
}

function mappingOf(
  activity: ActivityRow,
  mapping: { product_option_id: string; notify: number } | undefined,
  types: TicketTypeRow[],
  choices: Map<number, string>,
): ViatorProductMapping {
  const optionId = mapping?.product_option_id ?? null;
  return {
    ActivityID: activity.public_id,
    Name: activity.name,
    ProductOptionID: optionId,
    Notifying: mapping?.notify === 1,
    TicketTypes: decideBands(types, choices).map((d) => ({
      Type: d.type.code,
      Name: d.type.name,
      Band: d.band,
      Chosen: d.chosen,
      Offered: optionId !== null && d.offered,
      Reason: optionId === null ? 'The activity is not offered on Viator (it has no product option ID)' : d.reason,
    })),
  };
}

/** Every live activity with its product option ID (or null) and each ticket type's band, offered or why not. */
export async function listProducts(db: Kysely<Database>, operatorId: number): Promise<ViatorProductMapping[]> {
  const activities = await listActivities(db, operatorId);
  const [mappings, types, choices] = await Promise.all([
    listProductMappings(db, operatorId),
    ticketTypesByActivity(
      db,
      activities.map((a) => a.id),
    ),
    bandChoices(db, operatorId),
  ]);
  const byActivity = new Map(mappings.map((m) => [m.activity_id, m]));
  return activities.map((activity) => mappingOf(activity, byActivity.get(activity.id), types.get(activity.id) ?? [], choices));
}

export async function mapProduct(db: Db, operatorId: number, activityId: string, body: ProductMappingBody): Promise<ViatorProductMapping> {
  const activity = await findActivity(db.kysely, operatorId, activityId);
  if (!activity || activity.archived) throw new NotFound(`No activity ${activityId}`);
  const types = await listTicketTypes(db.kysely, [activity.id]);
  const errors: { field: string; message: string }[] = [];
  const byCode = new Map(types.map((type) => [type.code, type]));
  const seen = new Set<string>();
  body.Bands?.forEach((line, index) => {
    if (!byCode.has(line.Type)) errors.push({ field: `Bands[${index}].Type`, message: `The activity has no ticket type "${line.Type}"` });
    else if (seen.has(line.Type)) errors.push({ field: `Bands[${index}].Type`, message: `Ticket type "${line.Type}" is listed more than once` });
    seen.add(line.Type);
  });
  if (errors.length > 0) throw new ValidationFailed(errors);

  await db.write(async (tx) => {
    await ensureConnection(tx, operatorId);
    const before = (await listProducts(tx, operatorId)).find((p) => p.ActivityID === activityId);
    if (body.ProductOptionID !== undefined) {
      const holder = body.ProductOptionID === null ? undefined : await findOptionIdTaken(tx, operatorId, body.ProductOptionID);
      if (holder !== undefined && holder !== activity.id)
        throw ValidationFailed.field('ProductOptionID', `Product option ID "${body.ProductOptionID}" is already given to another activity`);
      if (holder === undefined) await setProductMapping(tx, operatorId, activity.id, body.ProductOptionID);
    }
    for (const line of body.Bands ?? []) await setBandChoice(tx, operatorId, byCode.get(line.Type)!.id, line.Band);
    const after = (await listProducts(tx, operatorId)).find((p) => p.ActivityID === activityId);
    await audit(tx, { operatorId, action: 'viator.product', resource: { type: 'activity', id: activityId }, before, after });
  });
  return (await listProducts(db.kysely, operatorId)).find((p) => p.ActivityID === activityId)!;
}

export interface ReadyConnection {
  supplierId: string;
  key: string;
}

/**
 * A connection switched on at once with `supplierId`, offering each activity under its own ActivityID as
 * the product option ID (the demo's, on first start). Inside the caller's transaction; the key is
 * returned once. Without Viator's outbound key, nothing is pushed.
 */
export async function connectWithActivities(tx: Tx, operatorId: number, supplierId: string, activityIds: string[]): Promise<ReadyConnection> {
  const fresh = generateKey();
  const now = nowMillis();
  await insertConnection(tx, {
    operator_id: operatorId,
    enabled: 1,
    key_hash: fresh.keyHash,
    key_hint: fresh.hint,
    supplier_id: supplierId,
    created_at: now,
    updated_at: now,
  });
  for (const activityId of activityIds) {
    const activity = await findActivity(tx, operatorId, activityId);
    if (activity) await setProductMapping(tx, operatorId, activity.id, activity.public_id);
  }
  return { supplierId, key: fresh.key };
}

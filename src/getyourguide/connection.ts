// The operator's GetYourGuide connection (docs/channels/getyourguide.md): set up on the first change,
// switched on and off, its inbound credentials rotated (the password shown once), GYG's supplier ID and
// outbound credentials (the password sealed), the hold length and ticket style, and which activities and
// ticket types are offered. Every change writes an audit entry; secrets never reach it.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { audit } from '../audit/log.js';
import { findActivity, listActivities, type ActivityRow } from '../catalog/index.js';
import { listTicketTypes, ticketTypesByActivity, type TicketTypeRow } from '../catalog/index.js';
import { generateCredentials } from './credentials.js';
import { decideTypes } from './offer.js';
import {
  categoryChoices,
  findConnection,
  findProductIdTaken,
  insertConnection,
  listNotifications,
  listProductMappings,
  listRequests,
  setCategoryChoice,
  setProductMapping,
  updateConnection,
  type ConnectionRow,
} from './store.js';
import type { GygConnection, GygProductMapping, OutboundBody, ProductMappingBody, UpdateConnectionBody } from './admin-schemas.js';
import { nowMillis, type UnixMillis } from '../lib/clock.js';

export const OUTBOUND_PASSWORD_PURPOSE = 'gyg-outbound-password';

/**
 * Whether the connection pushes availability to GYG (push.ts): switched on, with GYG's credentials for
 * its API. Pushes are off until configured, so a demo or a connection used for GYG's pulls only never
 * sends GYG's real API a request it would refuse.
 */
export const pushesOn = (connection: Pick<ConnectionRow, 'enabled' | 'outbound_username' | 'outbound_password_sealed'>): boolean =>
  connection.enabled === 1 && connection.outbound_username !== null && connection.outbound_password_sealed !== null;
const LISTED = 50;

export interface ConnectionSettings {
  publicUrl: string;
  gygHoldMinutes: number;
}

const iso = (ms: UnixMillis) => new Date(Number(ms)).toISOString();

/** The settings audit entries show: never a password. */
const auditView = (row: ConnectionRow) => ({
  Enabled: row.enabled === 1,
  Username: row.username,
  SupplierID: row.supplier_id,
  HoldMinutes: row.hold_minutes,
  TicketStyle: row.ticket_style,
  OutboundUsername: row.outbound_username,
});

export async function getConnection(
  db: Kysely<Database>,
  settings: ConnectionSettings,
  operatorId: number,
  password?: string,
): Promise<GygConnection> {
  const row = await findConnection(db, operatorId);
  const [notifications, requests] = row
    ? await Promise.all([listNotifications(db, operatorId, LISTED), listRequests(db, operatorId, LISTED)])
    : [[], []];
  return {
    Configured: row !== undefined,
    Enabled: row?.enabled === 1,
    EndpointURL: `${settings.publicUrl}/gyg`,
    Username: row?.username ?? null,
    ...(password !== undefined && { Password: password }),
    SupplierID: row?.supplier_id ?? null,
    HoldMinutes: row?.hold_minutes ?? null,
    EffectiveHoldMinutes: row?.hold_minutes ?? settings.gygHoldMinutes,
    TicketStyle: row?.ticket_style === 'COLLECTIVE' ? 'COLLECTIVE' : 'INDIVIDUAL',
    OutboundUsername: row?.outbound_username ?? null,
    OutboundPasswordSet: row?.outbound_password_sealed != null,
    PushesAvailability: row !== undefined && pushesOn(row),
    Notifications: notifications.map((n) => ({
      Type: n.notification_type,
      ProductID: n.product_id,
      Description: n.description,
      Details: JSON.parse(n.details) as Record<string, unknown>,
      ReceivedAt: iso(n.received_at),
    })),
    Requests: requests.map((r) => ({
      Endpoint: r.endpoint,
      ProductID: r.product_id,
      ErrorCode: r.error_code,
      DurationMs: r.duration_ms,
      At: iso(r.at),
    })),
  };
}

/** The connection, made (switched off, with fresh credentials) when there is none yet; the password when it was made. */
async function ensureConnection(tx: Tx, operatorId: number): Promise<{ row: ConnectionRow; password?: string }> {
  const existing = await findConnection(tx, operatorId);
  if (existing) return { row: existing };
  const credentials = generateCredentials();
  const now = nowMillis();
  const row = await insertConnection(tx, {
    operator_id: operatorId,
    enabled: 0,
    username: credentials.username,
    password_hash: credentials.passwordHash,
    created_at: now,
    updated_at: now,
  });
  await audit(tx, { operatorId, action: 'getyourguide.create', resource: { type: 'getyourguide', id: operatorId }, after: auditView(row) });
  return { row, password: credentials.password };
}

export async function updateConnectionSettings(
  db: Db,
  settings: ConnectionSettings,
  operatorId: number,
  body: UpdateConnectionBody,
): Promise<GygConnection> {
  const password = await db.write(async (tx) => {
    const { row, password } = await ensureConnection(tx, operatorId);
    const after = await updateConnection(tx, operatorId, {
      ...(body.Enabled !== undefined && { enabled: body.Enabled ? 1 : 0 }),
      ...(body.SupplierID !== undefined && { supplier_id: body.SupplierID }),
      ...(body.HoldMinutes !== undefined && { hold_minutes: body.HoldMinutes }),
      ...(body.TicketStyle !== undefined && { ticket_style: body.TicketStyle }),
    });
    await audit(tx, {
      operatorId,
      action: 'getyourguide.update',
      resource: { type: 'getyourguide', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return password;
  });
  return getConnection(db.kysely, settings, operatorId, password);
}

/** New inbound credentials: the old ones stop working at once. The password is in this answer only. */
export async function rotateCredentials(db: Db, settings: ConnectionSettings, operatorId: number): Promise<GygConnection> {
  const password = await db.write(async (tx) => {
    const { row, password } = await ensureConnection(tx, operatorId);
    if (password !== undefined) return password;
    const credentials = generateCredentials();
    const after = await updateConnection(tx, operatorId, { username: credentials.username, password_hash: credentials.passwordHash });
    await audit(tx, {
      operatorId,
      action: 'getyourguide.rotate',
      resource: { type: 'getyourguide', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return credentials.password;
  });
  return getConnection(db.kysely, settings, operatorId, password);
}

export async function setOutboundCredentials(
  db: Db,
  keys: InstanceKeys,
  settings: ConnectionSettings,
  operatorId: number,
  body: OutboundBody | null,
): Promise<GygConnection> {
  const password = await db.write(async (tx) => {
    const { row, password } = await ensureConnection(tx, operatorId);
    const after = await updateConnection(tx, operatorId, {
      outbound_username: body?.Username ?? null,
      outbound_password_sealed: body ? keys.seal(OUTBOUND_PASSWORD_PURPOSE, body.Password) : null,
    });
    await audit(tx, {
      operatorId,
      action: body ? 'getyourguide.outbound-set' : 'getyourguide.outbound-remove',
      resource: { type: 'getyourguide', id: operatorId },
      before: auditView(row),
      after: auditView(after!),
    });
    return password;
  });
  return getConnection(db.kysely, settings, operatorId, password);
}

function mappingOf(activity: ActivityRow, productId: string | null, types: TicketTypeRow[], choices: Map<number, string>): GygProductMapping {
  return {
    ActivityID: activity.public_id,
    Name: activity.name,
    ProductID: productId,
    TicketTypes: decideTypes(types, choices).map((d) => ({
      Type: d.type.code,
      Name: d.type.name,
      Category: d.category,
      Chosen: d.chosen,
      Offered: productId !== null && d.offered,
      Reason: productId === null ? 'The activity is not offered on GetYourGuide (it has no product ID)' : d.reason,
    })),
  };
}

/** Every live activity with its GYG product ID (or null) and each ticket type's category, offered or why not. */
export async function listProducts(db: Kysely<Database>, operatorId: number): Promise<GygProductMapping[]> {
  const activities = await listActivities(db, operatorId);
  const [mappings, types, choices] = await Promise.all([
    listProductMappings(db, operatorId),
    ticketTypesByActivity(
      db,
      activities.map((a) => a.id),
    ),
    categoryChoices(db, operatorId),
  ]);
  const productOf = new Map(mappings.map((m) => [m.activity_id, m.product_id]));
  return activities.map((activity) => mappingOf(activity, productOf.get(activity.id) ?? null, types.get(activity.id) ?? [], choices));
}

export async function mapProduct(db: Db, operatorId: number, activityId: string, body: ProductMappingBody): Promise<GygProductMapping> {
  const activity = await findActivity(db.kysely, operatorId, activityId);
  if (!activity || activity.archived) throw new NotFound(`No activity ${activityId}`);
  const types = await listTicketTypes(db.kysely, [activity.id]);
  const errors: { field: string; message: string }[] = [];
  const byCode = new Map(types.map((type) => [type.code, type]));
  const seen = new Set<string>();
  body.Categories?.forEach((line, index) => {
    if (!byCode.has(line.Type)) errors.push({ field: `Categories[${index}].Type`, message: `The activity has no ticket type "${line.Type}"` });
    else if (seen.has(line.Type)) errors.push({ field: `Categories[${index}].Type`, message: `Ticket type "${line.Type}" is listed more than once` });
    seen.add(line.Type);
  });
  if (errors.length > 0) throw new ValidationFailed(errors);

  await db.write(async (tx) => {
    await ensureConnection(tx, operatorId);
    const before = (await listProducts(tx, operatorId)).find((p) => p.ActivityID === activityId);
    if (body.ProductID !== undefined) {
      const holder = body.ProductID === null ? undefined : await findProductIdTaken(tx, operatorId, body.ProductID);
      if (holder !== undefined && holder !== activity.id)
        throw ValidationFailed.field('ProductID', `Product ID "${body.ProductID}" is already given to another activity`);
      await setProductMapping(tx, operatorId, activity.id, body.ProductID);
    }
    for (const line of body.Categories ?? []) await setCategoryChoice(tx, operatorId, byCode.get(line.Type)!.id, line.Category);
    const after = (await listProducts(tx, operatorId)).find((p) => p.ActivityID === activityId);
    await audit(tx, { operatorId, action: 'getyourguide.product', resource: { type: 'activity', id: activityId }, before, after });
  });
  return (await listProducts(db.kysely, operatorId)).find((p) => p.ActivityID === activityId)!;
}

export interface ReadyConnection {
  supplierId: string;
  username: string;
  password: string;
}

/**
 * A connection switched on at once with `supplierId`, offering each activity under its own ActivityID as
 * the GYG product ID (the demo's, on first start). Inside the caller's transaction; the password is
 * returned once.
 */
export async function connectWithActivities(tx: Tx, operatorId: number, supplierId: string, activityIds: string[]): Promise<ReadyConnection> {
  const credentials = generateCredentials();
  const now = nowMillis();
  await insertConnection(tx, {
    operator_id: operatorId,
    enabled: 1,
    username: credentials.username,
    password_hash: credentials.passwordHash,
    supplier_id: supplierId,
    created_at: now,
    updated_at: now,
  });
  for (const activityId of activityIds) {
    const activity = await findActivity(tx, operatorId, activityId);
    if (activity) await setProductMapping(tx, operatorId, activity.id, activity.public_id);
  }
  return { supplierId, username: credentials.username, password: credentials.password };
}

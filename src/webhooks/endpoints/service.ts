// Webhook endpoints: the rules of adding, changing, disabling, deleting, rotating and testing them, for the
// operator (admin API, dashboard) and for a marketplace (its ota key, its own endpoints only).
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import type { InstanceKeys } from '../../secrets/keys.js';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../../http/errors.js';
import { MARKETPLACE_PATTERN } from '../../lib/marketplaces.js';
import { addSeconds, nowMillis, toSeconds, unixNow } from '../../lib/clock.js';
import { EVENT_TYPES } from '../../events/types.js';
import { MARKETPLACE_TYPES } from './subscriptions.js';
import { checkEndpointUrl, type UrlRules } from './url.js';
import { endpointKind } from './address.js';
import { newSigningSecret, SECRET_PURPOSE } from './signing.js';
import { toEndpoint } from './view.js';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  makePendingDue,
  updateEndpoint,
  type EndpointRow,
  type Owner,
} from './store.js';
import type { CreateEndpointBody, UpdateEndpointBody, WebhookEndpoint, WebhookEndpointWithSecret } from './schemas.js';
import { audit } from '../../audit/log.js';

export type { Owner } from './store.js';

/** Endpoints per operator, its marketplaces' included (Stripe allows 16), and per marketplace of it. */
export const MAX_ENDPOINTS = 20;
export const MAX_MARKETPLACE_ENDPOINTS = 5;
/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

/** The event types an endpoint may name: a marketplace's only those about its bookings and the public catalogue. */
function checkEventTypes(types: string[], marketplace: boolean): FieldError[] {
  const allowed: readonly string[] = marketplace ? [...MARKETPLACE_TYPES] : EVENT_TYPES;
  return types.flatMap((type, index) =>
    type === '*' || allowed.includes(type)
      ? []
      : [
          {
            field: `EventTypes[${index}]`,
            message: `EventTypes[${index}] "${type}" is not an event type ${marketplace ? 'a marketplace receives' : 'slotbook sends'}; use * or one of ${allowed.join(', ')}`,
          },
        ],
  );
}

export async function requireEndpoint(db: Kysely<Database>, owner: Owner, id: number): Promise<EndpointRow> {
  const row = await findEndpoint(db, owner, id);
  if (!row) throw new NotFound(`No webhook endpoint ${id}`);
  return row;
}

export async function createEndpoint(
  db: Db,
  keys: InstanceKeys,
  rules: UrlRules,
  owner: Owner,
  body: CreateEndpointBody,
): Promise<WebhookEndpointWithSecret> {
  const errors: FieldError[] = [];
  // A marketplace's key makes its own marketplace's endpoints; the operator may make one for any marketplace.
  const partner = owner.partner ?? body.Partner ?? null;
  if (owner.partner !== undefined && body.Partner != null && body.Partner !== owner.partner) {
    errors.push({ field: 'Partner', message: `This key's endpoints are for marketplace "${owner.partner}"; leave Partner out` });
  } else if (partner !== null && (!MARKETPLACE_PATTERN.test(partner) || partner === 'core')) {
    errors.push({ field: 'Partner', message: 'Partner must be a marketplace name: lower-case letters, digits and dashes (and not "core")' });
  }
  errors.push(...checkEventTypes(body.EventTypes, partner !== null));
  const url = await checkEndpointUrl(body.URL, rules, endpointKind(partner)).catch((error: unknown) => {
    if (!(error instanceof ValidationFailed)) throw error;
    errors.push(...(error.errors ?? []));
    return '';
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
  const secret = newSigningSecret();
  const now = nowMillis();
  const row = await db.write(async (tx) => {
    const count = await countEndpoints(tx, owner.operatorId, partner);
    if (count.all >= MAX_ENDPOINTS)
      throw new Conflict(`An operator has at most ${MAX_ENDPOINTS} webhook endpoints (its marketplaces' included); delete one first`);
    // A marketplace cannot take the operator's whole allowance.
    if (partner !== null && count.partner >= MAX_MARKETPLACE_ENDPOINTS) {
      throw new Conflict(`A marketplace has at most ${MAX_MARKETPLACE_ENDPOINTS} webhook endpoints per operator; delete one first`);
    }
    const enabled = body.Enabled ?? true;
    const inserted = await insertEndpoint(tx, {
      operator_id: owner.operatorId,
      url,
      description: body.Description ?? '',
      event_types: body.EventTypes.join(' '),
      partner,
      status: enabled ? 'enabled' : 'disabled',
      disabled_reason: enabled ? null : 'manual',
      disabled_at: enabled ? null : toSeconds(now),
      secret_sealed: keys.seal(SECRET_PURPOSE, secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      failing_since: null,
      last_success_at: null,
      created_at: now,
      updated_at: now,
    });
    // The audit entry never holds the secret: toEndpoint shows none.
    await audit(tx, {
      operatorId: owner.operatorId,
      action: 'webhook.create',
      resource: { type: 'webhook-endpoint', id: inserted.id },
      after: toEndpoint(inserted),
    });
    return inserted;
  });
  return { ...toEndpoint(row), Secret: secret };
}

export async function getEndpoints(db: Kysely<Database>, owner: Owner): Promise<WebhookEndpoint[]> {
  const now = unixNow();
  return (await listEndpoints(db, owner)).map((row) => toEndpoint(row, now));
}

export async function getEndpoint(db: Kysely<Database>, owner: Owner, id: number): Promise<WebhookEndpoint> {
  return toEndpoint(await requireEndpoint(db, owner, id));
}

/**
 * Changes an endpoint. Enabled: false stops its deliveries (they wait); Enabled: true resumes them at once
 * and forgets that it was failing, so an automatically disabled endpoint gets a fresh start.
 */
export async function changeEndpoint(db: Db, rules: UrlRules, owner: Owner, id: number, body: UpdateEndpointBody): Promise<WebhookEndpoint> {
  const row = await requireEndpoint(db.kysely, owner, id);
  const errors = body.EventTypes ? checkEventTypes(body.EventTypes, row.partner !== null) : [];
  const url =
    body.URL === undefined
      ? undefined
      : await checkEndpointUrl(body.URL, rules, endpointKind(row.partner)).catch((error: unknown) => {
          if (!(error instanceof ValidationFailed)) throw error;
          errors.push(...(error.errors ?? []));
          return undefined;
        });
  if (errors.length > 0) throw new ValidationFailed(errors);
  const now = unixNow();
  const updated = await db.write(async (tx) => {
    const enabling = body.Enabled === true && row.status === 'disabled';
    const disabling = body.Enabled === false && row.status === 'enabled';
    const changed = await updateEndpoint(tx, row.id, {
      ...(url !== undefined && { url }),
      ...(body.Description !== undefined && { description: body.Description }),
      ...(body.EventTypes !== undefined && { event_types: body.EventTypes.join(' ') }),
      ...(enabling && { status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null }),
      ...(disabling && { status: 'disabled', disabled_reason: 'manual', disabled_at: now }),
      updated_at: nowMillis(),
    });
    if (enabling) await makePendingDue(tx, row.id, now);
    await audit(tx, {
      operatorId: owner.operatorId,
      action: 'webhook.update',
      resource: { type: 'webhook-endpoint', id: row.id },
      before: toEndpoint(row, now),
      after: toEndpoint(changed, now),
    });
    return changed;
  });
  return toEndpoint(updated, now);
}

export async function removeEndpoint(db: Db, owner: Owner, id: number): Promise<void> {
  const row = await requireEndpoint(db.kysely, owner, id);
  await db.write(async (tx) => {
    await deleteEndpoint(tx, row.id);
    await audit(tx, {
      operatorId: owner.operatorId,
      action: 'webhook.delete',
      resource: { type: 'webhook-endpoint', id: row.id },
      before: toEndpoint(row),
    });
  });
}

/**
 * A new signing secret, shown once. The one it replaces keeps signing beside it for 24 hours (so receivers
 * can switch without missing a delivery); a secret rotated out before that is dropped at once.
 */
export async function rotateSecret(db: Db, keys: InstanceKeys, owner: Owner, id: number): Promise<WebhookEndpointWithSecret> {
  const row = await requireEndpoint(db.kysely, owner, id);
  const secret = newSigningSecret();
  const now = unixNow();
  const updated = await db.write(async (tx) => {
    const rotated = await updateEndpoint(tx, row.id, {
      secret_sealed: keys.seal(SECRET_PURPOSE, secret),
      previous_secret_sealed: row.secret_sealed,
      previous_secret_expires_at: addSeconds(now, PREVIOUS_SECRET_SECONDS),
      updated_at: nowMillis(),
    });
    await audit(tx, { operatorId: owner.operatorId, action: 'webhook.rotate-secret', resource: { type: 'webhook-endpoint', id: row.id } });
    return rotated;
  });
  return { ...toEndpoint(updated, now), Secret: secret };
}

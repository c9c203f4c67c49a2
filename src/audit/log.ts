// The audit log's one writing function. A service calls `audit(tx, ...)` inside the transaction of the
// change it records, so the entry exists exactly when the change does. The actor and the client address
// come from the request's context (access/actor.ts); there is no function that changes or deletes an entry.
import type { Tx } from '../db/connection.js';
import { currentContext, type Actor } from '../access/actor.js';
import { insertAuditEntry } from './store.js';
import { nowMillis } from '../lib/clock.js';

export interface AuditEntry {
  operatorId: number;
  /** `<resource>.<verb>`, e.g. `booking.cancel`, `user.invite`, `session.sign-in`. */
  action: string;
  /** The kind of thing changed, e.g. `booking`, and its public identifier (reference, ActivityID, row ID). */
  resource: { type: string; id: string | number | null };
  /** The resource as the API shows it, before and after the change (omit for a creation / a deletion). */
  before?: unknown;
  after?: unknown;
}

/** Who to record when the request's actor is not the one to name (a sign-in names the user signing in). */
export type AuditActor = { type: 'user' | 'key' | 'system' | 'anonymous'; id: number | null; label: string };

// Field names whose values are never stored: secrets, password material, one-time tokens.
const SECRET_FIELD = /pass(word)?|secret|token|^key$|recovery|hash|totp.*code|^code$|otpauth|qr/i;
export const REDACTED = '[redacted]';

/** A copy of the value with every secret-looking field replaced by "[redacted]". */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, inner]) => [
        name,
        SECRET_FIELD.test(name) && inner !== null ? REDACTED : redact(inner),
      ]),
    );
  }
  return value;
}

function actorOf(actor: Actor | undefined): AuditActor {
  if (!actor) return { type: 'system', id: null, label: 'system' };
  return actor.kind === 'key' ? { type: 'key', id: actor.keyId, label: actor.label } : { type: 'user', id: actor.userId, label: actor.label };
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(redact(value)));

/** Appends an entry to the operator's audit log, inside the transaction of the change it records. */
export async function audit(tx: Tx, entry: AuditEntry, as?: AuditActor): Promise<void> {
  const context = currentContext();
  const actor = as ?? actorOf(context?.actor);
  await insertAuditEntry(tx, {
    operator_id: entry.operatorId,
    at: nowMillis(),
    actor_type: actor.type,
    actor_id: actor.id,
    actor_label: actor.label,
    address: context?.address ?? null,
    action: entry.action,
    resource_type: entry.resource.type,
    resource_id: entry.resource.id === null ? null : String(entry.resource.id),
    before_json: json(entry.before),
    after_json: json(entry.after),
  });
}

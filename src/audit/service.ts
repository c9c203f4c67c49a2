import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ValidationFailed } from '../http/errors.js';
import { csvLine } from './csv.js';
import { listAuditEntries, type AuditFilter, type AuditRow } from './store.js';
import type { AuditEntryView, AuditExportQuery, AuditQuery } from './schemas.js';
import { asUnixMillis, type UnixMillis } from '../lib/clock.js';

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

export function toAuditEntry(row: AuditRow): AuditEntryView {
  return {
    ID: Number(row.id),
    At: new Date(Number(row.at)).toISOString(),
    Actor: { Type: row.actor_type, ID: row.actor_id, Label: row.actor_label },
    Address: row.address,
    Action: row.action,
    Resource: { Type: row.resource_type, ID: row.resource_id },
    Before: parse(row.before_json),
    After: parse(row.after_json),
  };
}

/** A query's filters in the store's terms; a date alone means its whole UTC day. */
export function auditFilter(query: AuditExportQuery & { Before?: number }): AuditFilter {
  const instant = (value: string, endOfDay: boolean): UnixMillis | undefined => {
    const ms = value.length === 10 ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
    // Date.parse rolls 2024-02-30 over to March: a date must name itself.
    if (Number.isNaN(ms) || (value.length === 10 && new Date(ms).toISOString().slice(0, 10) !== value)) return undefined;
    return asUnixMillis(ms + (endOfDay ? (value.length === 10 ? 86_400_000 : 1) : 0));
  };
  const from = query.From === undefined ? undefined : instant(query.From, false);
  const to = query.To === undefined ? undefined : instant(query.To, true);
  if (query.From !== undefined && from === undefined) throw ValidationFailed.field('From', `From is not a valid date or instant: "${query.From}"`);
  if (query.To !== undefined && to === undefined) throw ValidationFailed.field('To', `To is not a valid date or instant: "${query.To}"`);
  if (from !== undefined && to !== undefined && to <= from) throw ValidationFailed.field('To', 'To must be after From');
  const [actorType, actorId] = (query.Actor ?? '').split(':');
  return {
    actorType: actorType ? (actorType as AuditFilter['actorType']) : undefined,
    actorId: actorId === undefined ? undefined : Number(actorId),
    action: query.Action,
    resourceType: query.ResourceType,
    resourceId: query.ResourceID,
    from,
    to,
    beforeId: query.Before,
  };
}

export async function listAudit(db: Kysely<Database>, operatorId: number, query: AuditQuery): Promise<AuditEntryView[]> {
  return (await listAuditEntries(db, operatorId, auditFilter(query), query.Limit)).map(toAuditEntry);
}

const CSV_COLUMNS = ['ID', 'At', 'ActorType', 'ActorID', 'Actor', 'Address', 'Action', 'ResourceType', 'ResourceID', 'Before', 'After'];
const PAGE = 1000;

/** The whole filtered log as CSV lines, newest first, read a page at a time. */
export async function* auditCsv(db: Kysely<Database>, operatorId: number, query: AuditExportQuery): AsyncGenerator<string> {
  const filter = auditFilter(query);
  yield csvLine(CSV_COLUMNS);
  for (;;) {
    const rows = await listAuditEntries(db, operatorId, filter, PAGE);
    for (const row of rows) {
      const entry = toAuditEntry(row);
      yield csvLine([
        entry.ID,
        entry.At,
        entry.Actor.Type,
        entry.Actor.ID,
        entry.Actor.Label,
        entry.Address,
        entry.Action,
        entry.Resource.Type,
        entry.Resource.ID,
        row.before_json,
        row.after_json,
      ]);
    }
    if (rows.length < PAGE) return;
    filter.beforeId = Number(rows[rows.length - 1]!.id);
  }
}

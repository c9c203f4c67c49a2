// The dispatcher: turns the outbox into deliveries. One pass, run by the worker of every process:
//
//   1. expire lapsed holds of operators with endpoints (each timeslot in its own transaction, through the
//      same releaseLapsedHolds as every writer, so each hold is released, and its booking.expired
//      written, exactly once, whichever process or request gets there first);
//   2. turn notes of changed seats into availability.changed events: at most one per timeslot per
//      AVAILABILITY_COALESCE_MS, showing the timeslot as it is when the event is made;
//   3. fan out: render each new event, give it its public ID, and create one delivery per enabled endpoint
//      that subscribes to its type and may see it (a marketplace: public events and its own bookings').
//
// Steps 2 and 3 run in write transactions that one process at a time may enter (SQLite's write lock; a
// PostgreSQL advisory lock, skipped by the others), so an event is fanned out once and a timeslot's
// notices are never raced.
import { Hook } from '../../hooks/registry.js';
import type { Db, Tx } from '../../db/connection.js';
import { releaseLapsedHolds } from '../../bookings/index.js';
import type { Audience } from '../../events/types.js';
import { reaches, subscribes } from '../endpoints/subscriptions.js';
import { expandOutbox, newEventId, renderEvents, renderTimeslots, type OutboxEvent } from './render.js';
import {
  appendOutboxRow,
  availabilityNotices,
  changedTimeslots,
  deleteOutboxRows,
  forgetTimeslotChanges,
  insertDeliveries,
  insertEvents,
  readOutbox,
  recordAvailabilityNotices,
  timeslotsWithLapsedHolds,
  tryDispatchLock,
} from './store.js';
import { enabledEndpointsOf } from '../endpoints/store.js';
import { toMillis, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

export const AVAILABILITY_COALESCE_MS = 5_000;

/** Told, in the dispatcher's transaction, which timeslots' availability was just coalesced (a channel's push). */
export const availabilityCoalesced = new Hook<[tx: Tx, timeslotIds: number[], nowMs: UnixMillis]>();

export interface DispatchReport {
  expired: number;
  availability: number;
  events: number;
  deliveries: number;
}

/**
 * One dispatcher pass at `now` (Unix seconds): `batch` bounds the rows each step handles per transaction,
 * `maxBatches` the fan-out transactions of the pass (the worker keeps a busy process's passes short).
 */
/** publicUrl goes before the photo addresses of product events (the worker's configuration; tests leave it out). */
export async function dispatchEvents(db: Db, now: UnixSeconds, batch = 500, maxBatches = Infinity, publicUrl = ''): Promise<DispatchReport> {
  const report: DispatchReport = { expired: await expireLapsedHolds(db, now, batch), availability: 0, events: 0, deliveries: 0 };
  report.availability = (await exclusively(db, (tx) => coalesceAvailability(tx, now, batch))) ?? 0;
  for (let round = 0; round < maxBatches; round++) {
    const fanned = await exclusively(db, (tx) => fanOut(tx, now, batch, publicUrl));
    if (!fanned) break;
    report.events += fanned.events;
    report.deliveries += fanned.deliveries;
    if (!fanned.more) break;
  }
  return report;
}

/**
 * Runs `step` in a write transaction unless another process is dispatching (PostgreSQL); undefined then.
 * Its commit does not wait for the disk: lost in a crash, the outbox rows and notes it consumed are still
 * there and are dispatched again, and nothing of it was delivered (a claim commits durably, and so makes
 * the dispatch before it durable too).
 */
async function exclusively<T>(db: Db, step: (tx: Tx) => Promise<T>): Promise<T | undefined> {
  return db.write(
    async (tx) => {
      if (!(await tryDispatchLock(tx))) return undefined;
      return step(tx);
    },
    { durable: false },
  );
}

/** Releases the lapsed holds of operators that have endpoints; returns the timeslots swept. */
async function expireLapsedHolds(db: Db, now: UnixSeconds, batch: number): Promise<number> {
  const slots = await timeslotsWithLapsedHolds(db.kysely, now, batch);
  for (const slot of slots) await db.write((tx) => releaseLapsedHolds(tx, slot, now));
  return slots.length;
}

async function coalesceAvailability(tx: Tx, now: UnixSeconds, batch: number): Promise<number> {
  const nowMs = toMillis(now);
  const changed = await changedTimeslots(tx, batch);
  if (changed.length === 0) return 0;
  const notices = await availabilityNotices(
    tx,
    changed.map((row) => row.timeslot_id),
  );
  // A timeslot notified less than the window ago keeps its notes for a later pass.
  const due = changed.filter((row) => (notices.get(row.timeslot_id) ?? -Infinity) <= nowMs - AVAILABILITY_COALESCE_MS);
  if (due.length === 0) return 0;
  const slots = await renderTimeslots(
    tx,
    due.map((row) => row.timeslot_id),
    now,
  );
  const byOperator = new Map<number, unknown[]>();
  for (const row of due) {
    const slot = slots.get(row.timeslot_id);
    if (slot) {
      const audience: Audience = slot.archived ? 'operator' : 'public';
      const entries = byOperator.get(slot.operatorId) ?? byOperator.set(slot.operatorId, []).get(slot.operatorId)!;
      entries.push(['availability.changed', `timeslot:${row.timeslot_id}`, audience, null, null, null, JSON.parse(slot.data)]);
    }
    await forgetTimeslotChanges(tx, row.timeslot_id, row.last_id);
  }
  // Into the outbox like any event, so that the fan-out below treats it the same way.
  for (const [operatorId, entries] of byOperator) await appendOutboxRow(tx, operatorId, entries, nowMs);
  await availabilityCoalesced.run(
    tx,
    due.map((row) => row.timeslot_id),
    nowMs,
  );
  await recordAvailabilityNotices(
    tx,
    due.map((row) => row.timeslot_id),
    nowMs,
  );
  return [...byOperator.values()].reduce((sum, entries) => sum + entries.length, 0);
}

/**
 * Turns outbox rows into events and deliveries: each event rendered and given its public ID, one delivery
 * per enabled endpoint that subscribes to its type and may see it. At least one row, then rows while their
 * events fit `batch`; the rows are deleted in the same transaction.
 */
async function fanOut(tx: Tx, now: UnixSeconds, batch: number, publicUrl: string): Promise<{ events: number; deliveries: number; more: boolean }> {
  const rows = await readOutbox(tx, batch);
  const events: OutboxEvent[] = [];
  const taken: number[] = [];
  for (const row of rows) {
    const expanded = expandOutbox(row);
    if (taken.length > 0 && events.length + expanded.length > batch) break;
    events.push(...expanded);
    taken.push(Number(row.id));
  }
  if (taken.length === 0) return { events: 0, deliveries: 0, more: false };
  const rendered = await renderEvents(tx, events, publicUrl);
  const operators = [...new Set(events.map((event) => event.operatorId))];
  const endpoints = await enabledEndpointsOf(tx, operators);
  const sent = events.flatMap((event, index) => (rendered[index] === null ? [] : [{ event, publicId: newEventId(), data: rendered[index]! }])); // a resource gone: nothing to tell
  const ids = await insertEvents(
    tx,
    sent.map(({ event, publicId, data }) => ({
      publicId,
      operatorId: event.operatorId,
      type: event.type,
      resource: event.resource,
      data,
      createdAt: event.createdAt,
    })),
  );
  const deliveries: unknown[][] = [];
  sent.forEach(({ event }, index) => {
    for (const endpoint of endpoints) {
      // An endpoint receives the events that happened since it was created, not the history before it.
      if (endpoint.operator_id !== event.operatorId || Number(endpoint.created_at) > event.createdAt || !reaches(endpoint.partner, event)) continue;
      if (subscribes(endpoint.event_types.split(' '), event.type))
        deliveries.push([event.operatorId, endpoint.id, ids[index], event.resource, now, Date.now()]);
    }
  });
  await insertDeliveries(tx, deliveries);
  await deleteOutboxRows(tx, taken);
  // Rows were left for the next transaction: those beyond `batch` events, or beyond the rows read.
  return { events: sent.length, deliveries: deliveries.length, more: taken.length < rows.length || rows.length === batch };
}

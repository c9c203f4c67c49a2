// Realistic data, loaded through the service's own functions (not HTTP, not hand-written SQL): one
// operator with 50 activities and a year of timeslots, its usage entries spread over 365 UTC days and 50
// meters, and a second operator with a small usage history for the summary's comparison.
import { sql } from 'kysely';
import type { Db } from '../src/db/connection.js';
import { createOperator } from '../src/operators/service.js';
import { wireReactions } from '../src/reactions.js';
import { createApiKey } from '../src/auth/service.js';
import { createActivity } from '../src/catalog/service.js';
import { createTimeslots } from '../src/availability/creation.js';
import { recordUsageEntries, type UsageEntryInput } from '../src/usage/service.js';
import { addSeconds, asUnixSeconds } from '../src/lib/clock.js';

export const MARKETPLACE = 'viator';
export const ACTIVITY_COUNT = 50;
export const METER_COUNT = 50;
export const USAGE_DAYS = 365;
const TIMES = ['09:00', '11:00', '14:00', '17:00'];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Europe/London', 'Australia/Sydney'];

export interface Keys {
  ota: string;
  usage: string;
  admin: string;
}

export interface Seeded {
  operatorId: number;
  keys: Keys;
  activityIds: string[];
  /** Dates (activity-local) that have timeslots: tomorrow and the 364 days after it. */
  firstDate: string;
  lastDate: string;
  /** The timeslot every booking of the contention scenario goes to, and one small enough to sell out. */
  contention: { activityId: string; date: string; time: string; capacity: number };
  sellOut: { activityId: string; date: string; time: string; capacity: number };
  /** The timeslots of the webhook scenario's bursts: without an endpoint, and with one. */
  burst: { without: Slot; with: Slot };
  /** The operator with few entries, for the summary's comparison. */
  small: { operatorId: number; keys: Keys };
  /** The UTC days the usage covers (a year up to today). */
  usageFrom: string;
  usageTo: string;
}

type Slot = { activityId: string; date: string; time: string; capacity: number };

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

async function operatorWithKeys(db: Db, name: string): Promise<{ operatorId: number; keys: Keys }> {
  // Wired as the server and the command line wire them, so the bench's operator starts as a real one does:
  // with the starter "Booking confirmation" workflow, whose e-mail every booking of the bench queues.
  wireReactions();
  const { operatorId } = await createOperator(db, name);
  const ota = await db.write((tx) => createApiKey(tx, operatorId, { name: 'Marketplace', scopes: ['ota'], partner: MARKETPLACE }));
  const usage = await db.write((tx) => createApiKey(tx, operatorId, { name: 'Usage', scopes: ['usage:read', 'usage:write'] }));
  const admin = await db.write((tx) => createApiKey(tx, operatorId, { name: 'Admin', scopes: ['admin'] }));
  return { operatorId, keys: { ota: ota.key, usage: usage.key, admin: admin.key } };
}

export async function seedCatalog(db: Db): Promise<Omit<Seeded, 'small' | 'usageFrom' | 'usageTo'> & { small: Seeded['small'] }> {
  const { operatorId, keys } = await operatorWithKeys(db, 'Bench Adventures');
  const small = await operatorWithKeys(db, 'Bench Small Operator');
  const today = Date.now();
  const firstDate = isoDay(today + 2 * DAY_MS); // two days ahead: tomorrow's morning may have started somewhere
  const lastDate = isoDay(today + (2 + 364) * DAY_MS);
  const activityIds: string[] = [];
  for (let i = 0; i < ACTIVITY_COUNT; i++) {
    const activity = await createActivity(db, operatorId, {
      Name: `Activity ${String(i + 1).padStart(2, '0')}: ${['Kayak tour', 'Escape room', 'Pottery class', 'City walk', 'Wine tasting'][i % 5]}`,
      Description: 'A realistic description of an activity, long enough to look like one a partner shows to customers. '.repeat(3),
      DurationMinutes: 60 + (i % 4) * 30,
      Timezone: ZONES[i % ZONES.length]!,
      Currency: 'EUR',
      UnitPrice: 2500 + i * 100,
      MaxParticipantsPerBooking: 10,
    });
    activityIds.push(activity.ActivityID);
    await createTimeslots(db, operatorId, activity.ActivityID, {
      From: firstDate,
      To: lastDate,
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: TIMES,
      Capacity: 12,
    });
  }
  // Outside the year of timeslots, so the scenarios' bookings do not change the dates and timeslots read.
  const special = isoDay(today + 400 * DAY_MS);
  const contention = { activityId: activityIds[0]!, date: special, time: '12:00', capacity: 100_000 };
  const sellOut = { activityId: activityIds[0]!, date: special, time: '13:00', capacity: 200 };
  const burst = { without: { ...contention, time: '15:00' }, with: { ...contention, time: '16:00' } };
  for (const slot of [contention, sellOut, burst.without, burst.with]) {
    await createTimeslots(db, operatorId, slot.activityId, { Date: slot.date, Time: slot.time, Capacity: slot.capacity });
  }
  return { operatorId, keys, activityIds, firstDate, lastDate, contention, sellOut, burst, small };
}

/**
 * `total` entries over the USAGE_DAYS UTC days up to today, on METER_COUNT meters, in time order (as
 * they would arrive), one transaction per day through recordUsageEntries: the batch path, one insert per
 * 1,000 entries and one daily-total upsert per (day, meter).
 */
export async function seedUsage(
  db: Db,
  operatorId: number,
  total: number,
  options: { parallel?: number; onDay?: (day: number) => void } = {},
): Promise<{ from: string; to: string }> {
  const todayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const firstDayStart = todayStart - (USAGE_DAYS - 1) * DAY_MS;
  const firstOfDay = (day: number) => Math.floor((total * day) / USAGE_DAYS);
  const loadDay = async (day: number) => {
    const made = firstOfDay(day);
    const count = firstOfDay(day + 1) - made;
    const dayStart = asUnixSeconds((firstDayStart + day * DAY_MS) / 1000);
    const entries: UsageEntryInput[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const n = made + i;
      entries[i] = {
        meter: `meter-${String(n % METER_COUNT).padStart(2, '0')}`,
        // 0.001 to 5 units, with fractions, so the sums exercise the exact decimal path.
        micros: BigInt(((n * 7919) % 5000) + 1) * 1000n,
        extraInfo: n % 10 === 0 ? `{"request":"r-${n}"}` : null,
        occurredAt: addSeconds(dayStart, Math.floor((i * 86_400) / count)),
      };
    }
    await db.write((tx) => recordUsageEntries(tx, operatorId, entries));
    options.onDay?.(day);
  };
  // Days touch disjoint daily-total rows, so on PostgreSQL several can load at once without waiting on
  // each other; SQLite has one writer whatever we do.
  let nextDay = 0;
  const worker = async () => {
    while (nextDay < USAGE_DAYS) await loadDay(nextDay++);
  };
  await Promise.all(Array.from({ length: options.parallel ?? 1 }, worker));
  return { from: isoDay(firstDayStart), to: isoDay(todayStart) };
}

/** What a database that has just taken a bulk load gets from its housekeeping anyway. */
export async function settle(db: Db): Promise<void> {
  if (db.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db.kysely);
  else await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db.kysely);
}

// What the load generator sends: the partner's reads rotate over activities and dates, usage posts over
// meters, batches over pre-built bodies, like many clients would rather than one URL hammered.
import type { Seeded } from './seed.js';
import { METER_COUNT, MARKETPLACE } from './seed.js';
import { unixNow } from '../src/lib/clock.js';

export const partnerPath = `/api/v2/ota/${MARKETPLACE}`;
const DAY_MS = 86_400_000;
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const rotate = <T>(items: T[]) => {
  let i = 0;
  return () => items[i++ % items.length]!;
};

/** The first path of each rotation is the one whose answer the baseline serves. */
export function datesPaths(seeded: Seeded): string[] {
  return Array.from({ length: 500 }, (_, k) => {
    const activity = seeded.activityIds[k % seeded.activityIds.length]!;
    const start = plusDays(seeded.firstDate, (k * 7) % 300);
    return `${partnerPath}/availability/${activity}/dates?StartDate=${start}&EndDate=${plusDays(start, 30)}`;
  });
}

export function timeslotsPaths(seeded: Seeded): string[] {
  return Array.from({ length: 500 }, (_, k) => {
    const activity = seeded.activityIds[k % seeded.activityIds.length]!;
    return `${partnerPath}/availability/${activity}/timeslots?Date=${plusDays(seeded.firstDate, (k * 11) % 360)}`;
  });
}

export const cycle = (paths: string[]) => {
  const next = rotate(paths);
  return () => ({ path: next() });
};

export function usageBodies(): () => { path: string; body: string } {
  const bodies = Array.from({ length: METER_COUNT }, (_, m) =>
    JSON.stringify({
      Meter: `meter-${String(m).padStart(2, '0')}`,
      Usage: ((m % 7) + 1) * 0.25,
      ExtraInfo: m % 10 === 0 ? '{"source":"bench"}' : undefined,
    }),
  );
  const next = rotate(bodies);
  return () => ({ path: '/api/v2/usage/meters', body: next() });
}

export function batchBodies(size: number): () => { path: string; body: string } {
  const now = unixNow();
  const bodies = Array.from({ length: 10 }, (_, b) =>
    JSON.stringify({
      Entries: Array.from({ length: size }, (_, i) => ({
        Meter: `meter-${String((b * size + i) % METER_COUNT).padStart(2, '0')}`,
        Usage: (((i * 31) % 400) + 1) / 100,
        OccurredAt: now - ((i * 37) % 3600),
        ...(i % 10 === 0 && { ExtraInfo: `{"request":"b${b}-${i}"}` }),
      })),
    }),
  );
  const next = rotate(bodies);
  return () => ({ path: '/api/v2/usage/meters/batch', body: next() });
}

export function bookingBody(slot: Seeded['contention'], participants: number): string {
  return JSON.stringify({
    ActivityID: slot.activityId,
    Date: slot.date,
    Time: slot.time,
    Participants: participants,
    PaymentReference: 'bench-payment',
    Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
  });
}

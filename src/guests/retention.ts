// GUEST_RETENTION_DAYS (docs/privacy.md): a job of every process that erases the personal data of guests
// whose last activity with an operator (a booking made or attended, a waitlist place or basket opened) is
// that many days past, as an erasure on request does (reason "retention", audited as the system, sent to
// webhooks). Safe with any number of processes: each guest is erased in a transaction of its own under the
// guest's lock, which finds nothing left to erase once another process did it. A guest with a booking
// still to come is never due (its timeslot has not ended), so the refusal of an erasure on request does
// not arise here.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { startPeriodic } from '../lib/periodic.js';
import { DomainError } from '../http/errors.js';
import { eraseInTransaction } from './service.js';
import { activeSince, findGuestRows, guestsInactiveSince } from './store.js';
import { addMillis, nowMillis } from '../lib/clock.js';

const BATCH = 100;
const SYSTEM = { type: 'system', id: null, label: 'guest retention' } as const;

/** One pass: erases up to `limit` guests inactive for `days` days before `now`; answers how many. */
export async function eraseInactiveGuests(db: Db, days: number, now = nowMillis(), limit = BATCH): Promise<number> {
  const cutoff = addMillis(now, -days * 86_400_000);
  let erased = 0;
  for (const guest of await guestsInactiveSince(db.kysely, cutoff, limit)) {
    try {
      const done = await db.write(async (tx) => {
        // Read again under the transaction: a booking made meanwhile keeps the guest.
        if (await activeSince(tx, guest.operatorId, await findGuestRows(tx, guest.operatorId, guest.email), cutoff)) return false;
        await eraseInTransaction(tx, guest.operatorId, guest.email, 'retention', SYSTEM, now);
        return true;
      });
      if (done) erased += 1;
    } catch (error) {
      // Another process erased the guest first (nothing left), or a live booking appeared: the next pass looks again.
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return erased;
}

/** Every hour while GUEST_RETENTION_DAYS is set. */
export function startGuestRetention(
  db: Db,
  days: number | undefined,
  log: FastifyBaseLogger,
  intervalMs = 3_600_000,
): (() => Promise<void>) | undefined {
  if (days === undefined) return undefined;
  return startPeriodic(log, 'guest retention', intervalMs, async () => {
    const erased = await eraseInactiveGuests(db, days);
    if (erased > 0) log.info({ erased }, 'erased the personal data of inactive guests (GUEST_RETENTION_DAYS)');
  });
}

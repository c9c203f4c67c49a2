// The operator changes a timeslot's capacity. In one transaction: the timeslot must be theirs, its lapsed
// holds are released (the lifecycle: a hold whose time ran out must not stop the capacity going down),
// then availability sets the capacity, never below the seats booked.
import type { Db } from '../db/connection.js';
import { unixNow } from '../lib/clock.js';
import { getAdminTimeslot, setTimeslotCapacity } from '../availability/service.js';
import type { AdminTimeslot } from '../availability/schemas.js';
import { releaseLapsedHolds } from '../bookings/index.js';

export async function changeTimeslotCapacity(db: Db, operatorId: number, id: number, capacity: number): Promise<AdminTimeslot> {
  const now = unixNow();
  await db.write(async (tx) => {
    await getAdminTimeslot(tx, operatorId, id, now);
    await releaseLapsedHolds(tx, id, now);
    await setTimeslotCapacity(tx, operatorId, id, capacity, now);
  });
  return getAdminTimeslot(db.kysely, operatorId, id, now);
}

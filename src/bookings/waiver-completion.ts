// A guest completes their booking's waiver after the booking was made: a point-of-sale or marketplace
// booking, a waitlist claim, any booking whose required answers were not given (WaiverStatus pending).
// The guest reaches it through their booking's link (storefront/manage.ts); the answers are checked as a
// partner's WaiverAnswers are, every required one included, and the files named must be uploaded through
// that same link. A complete waiver is not changed again: it is what the guest agreed to.
import type { Db } from '../db/connection.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { audit, type AuditActor } from '../audit/log.js';
import { findActivity } from '../catalog/index.js';
import { nowMillis, unixNow } from '../lib/clock.js';
import { validateWaiverAnswers, type WaiverAnswerInput } from '../questions/service.js';
import { replaceWaiverAnswers } from '../questions/index.js';
import { keepBookingFiles } from '../questions/index.js';
import { findBooking, setWaiverStatus } from './store.js';
import { lockBooking } from './lifecycle/store.js';
import { effectiveStatus } from './view.js';

export async function completeWaiver(db: Db, operatorId: number, reference: string, answers: WaiverAnswerInput[], as: AuditActor): Promise<void> {
  const record = await findBooking(db.kysely, operatorId, reference);
  const activity = record && (await findActivity(db.kysely, operatorId, record.activity_public_id));
  if (!record || !activity) throw new NotFound(`No booking ${reference}`);
  await db.write(async (tx) => {
    const booking = await lockBooking(tx, record.id);
    if (!booking) throw new NotFound(`No booking ${reference}`);
    const status = effectiveStatus(booking, unixNow());
    if (status !== 'confirmed' && status !== 'on_hold')
      throw new Conflict(`Booking ${reference} is ${status}: its waiver can no longer be completed`);
    if (booking.waiver_status === 'complete') throw new Conflict(`The waiver of booking ${reference} is complete already`);
    const checked = await validateWaiverAnswers(tx, { operatorId, by: 'booking', bookingId: booking.id }, activity.id, answers);
    await replaceWaiverAnswers(tx, booking.id, checked.answers);
    const gone = await keepBookingFiles(tx, booking, nowMillis(), checked.fileIds);
    if (gone.length > 0)
      throw ValidationFailed.field('WaiverAnswers', `The uploaded file ${gone.join(', ')} was deleted before this booking named it; upload it again`);
    await setWaiverStatus(tx, booking.id, 'complete');
    await audit(
      tx,
      { operatorId, action: 'booking.waiver-complete', resource: { type: 'booking', id: reference }, after: { WaiverStatus: 'complete' } },
      as,
    );
  });
}

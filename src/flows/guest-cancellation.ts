// A guest cancels their own booking from the manage page. The use case, step by step, in one transaction:
// the lifecycle cancels it as the guest (the policy: confirmed, not redeemed, before the activity's
// GuestCancelHours; a refusal says why), then the shop records the refund the activity's rule gives of
// what the booking paid online. Stripe is asked for the refund right after the commit (the refund sender
// retries what fails); the test provider's refund succeeded in the transaction.
import type { Db } from '../db/connection.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { NotFound } from '../http/errors.js';
import { unixNow } from '../lib/clock.js';
import type { AuditActor } from '../audit/log.js';
import { cancel, orThrow } from '../bookings/index.js';
import { findBooking } from '../bookings/index.js';
import { sendPendingRefunds } from '../payments/jobs.js';
import type { StripeSettings } from '../payments/providers/stripe/gateway.js';
import { refundGuestCancellation } from '../payments/refunds.js';

export async function cancelByGuest(
  context: { db: Db; keys: InstanceKeys; settings: StripeSettings },
  operatorId: number,
  reference: string,
  as: AuditActor,
): Promise<void> {
  const { db } = context;
  const booking = await findBooking(db.kysely, operatorId, reference);
  if (!booking) throw new NotFound(`No booking ${reference}`);
  await db.write(async (tx) => {
    const now = unixNow();
    const { cancelled } = orThrow(await cancel(tx, booking, { kind: 'guest', as }, now));
    await refundGuestCancellation(tx, cancelled, now);
  });
  await sendPendingRefunds(db, context.keys, context.settings, operatorId);
}

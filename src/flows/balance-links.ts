// The balance link (docs/payments.md, "Deposits and balances"): a job, started by server.ts, e-mails the
// guest of each booking that paid a deposit online, still owes its balance and starts within its
// activity's BalanceDueDays, a link to their booking page, where "Pay the balance" makes a Stripe Checkout
// Session at the click (pay-balance.ts). Once per booking: a row of balance_requests (booking_id is its key)
// is inserted in the transaction that queues the e-mail, so two processes never send it twice. A booking
// whose balance was paid before its time (the desk) is marked handled without an e-mail.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { queueEmail } from '../emails/outbox.js';
import { unixNow } from '../lib/clock.js';
import { formatMinorUnits } from '../lib/money.js';
import { startPeriodic } from '../lib/periodic.js';
import { owedOf } from '../payments/booking-money.js';
import { MANAGE_BOOKING_MARKER } from '../workflows/templates.js';
import { balanceLinkCandidates, recordBalanceRequest } from '../payments/index.js';

/** Queues the balance e-mails now due (at most `limit`); answers how many were queued. */
export async function sendBalanceLinks(db: Db, now = unixNow(), limit = 100): Promise<number> {
  const candidates = await balanceLinkCandidates(db.kysely, now, limit);
  let queued = 0;
  for (const candidate of candidates) {
    const owed = (await owedOf(db.kysely, candidate.operator_id, [candidate.booking_id])).get(candidate.booking_id);
    const sent = await db.write(async (tx) => {
      if (!(await recordBalanceRequest(tx, candidate.operator_id, candidate.booking_id))) return false;
      if (!owed || owed.AmountDue === 0) return false;
      const due = `${formatMinorUnits(owed.AmountDue, owed.Currency)} ${owed.Currency}`;
      return queueEmail(tx, {
        operatorId: candidate.operator_id,
        kind: 'balance',
        bookingId: candidate.booking_id,
        to: candidate.customer_email,
        subject: `Balance due: ${candidate.activity_name} on ${candidate.date} at ${candidate.time}`,
        body:
          'Hello,\n\n' +
          `your booking ${candidate.reference} for ${candidate.activity_name} on ${candidate.date} at ${candidate.time} has a balance of ${due} to pay.\n\n` +
          `Pay it on your booking's page:\n${MANAGE_BOOKING_MARKER}\n\n` +
          'You can also pay it when you arrive.\n',
        sendAt: now,
        meter: null,
        meterExtraInfo: null,
      });
    });
    if (sent) queued++;
  }
  return queued;
}

export function startBalanceLinks(db: Db, log: FastifyBaseLogger, intervalMs = 60_000): () => Promise<void> {
  return startPeriodic(log, 'balance links', intervalMs, () => sendBalanceLinks(db));
}

// The daily digest for staff who asked for it (My account, Booking e-mails: daily digest): the bookings
// made and cancelled in the last 24 hours, one e-mail a day per user. A job (server.ts) runs it every few
// minutes; a user's digest goes once per UTC day, from DIGEST_HOUR_UTC on, marked in the same transaction
// that queues it, so two processes never send it twice.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { startPeriodic } from '../lib/periodic.js';
import { queueEmail } from '../emails/outbox.js';
import { bookingsForDigest, type BookingForDigest } from '../bookings/index.js';
import { digestRecipients, markDigestSent } from '../staff/index.js';
import { channelName } from '../lib/marketplaces.js';
import { addMillis, nowMillis, toSeconds } from '../lib/clock.js';

/** Digests go out from 06:00 UTC: the morning in Europe, the evening before in the Americas. */
export const DIGEST_HOUR_UTC = 6;
const DAY_MS = 86_400_000;
const BATCH = 100;

/** Queues today's digests that are due; answers how many were queued. */
export async function queueDigests(db: Db, nowMs = nowMillis()): Promise<number> {
  const now = new Date(nowMs);
  if (now.getUTCHours() < DIGEST_HOUR_UTC) return 0;
  const today = now.toISOString().slice(0, 10);
  let queued = 0;
  for (const recipient of await digestRecipients(db.kysely, today, BATCH)) {
    const bookings = await bookingsForDigest(db.kysely, recipient.operator_id, addMillis(nowMs, -DAY_MS), nowMs);
    const sent = await db.write(async (tx) => {
      if (!(await markDigestSent(tx, recipient.id, today))) return false;
      await queueEmail(tx, {
        operatorId: recipient.operator_id,
        kind: 'booking-notice',
        to: recipient.email,
        subject: `Bookings of the last 24 hours: ${summary(bookings)}`,
        body: digestBody(bookings),
        sendAt: toSeconds(nowMs),
        meter: null,
        meterExtraInfo: null,
      });
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}

function summary(bookings: BookingForDigest[]): string {
  const made = bookings.filter((b) => b.status === 'confirmed').length;
  const cancelled = bookings.length - made;
  return `${made} new, ${cancelled} cancelled`;
}

export function digestBody(bookings: BookingForDigest[]): string {
  const line = (b: BookingForDigest) =>
    `- ${b.reference}: ${b.activity_name}, ${b.date} ${b.time}, ${b.participants} ${b.participants === 1 ? 'person' : 'people'} (${channelName(b.source, b.partner)})`;
  const made = bookings.filter((b) => b.status === 'confirmed');
  const cancelled = bookings.filter((b) => b.status !== 'confirmed');
  return [
    `New bookings (${made.length}):`,
    ...(made.length > 0 ? made.map(line) : ['- none']),
    '',
    `Cancelled (${cancelled.length}):`,
    ...(cancelled.length > 0 ? cancelled.map(line) : ['- none']),
    '',
    'You get this e-mail once a day because you asked for a daily digest (My account, Booking e-mails).',
  ].join('\n');
}

/** The digest job, every 5 minutes (a digest is due once a day); safe with any number of processes. */
export function startDigests(db: Db, log: FastifyBaseLogger, intervalMs = 300_000): () => Promise<void> {
  return startPeriodic(log, 'booking digests', intervalMs, () => queueDigests(db));
}

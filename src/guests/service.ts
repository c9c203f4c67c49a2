// A guest's data on request (GDPR articles 15 and 17; docs/privacy.md): everything slotbook holds about the
// guest of one operator, found by e-mail address, as one JSON document; and its erasure, in one write
// transaction: contact fields anonymised, waiver answers and uploaded files deleted, the e-mails written to
// the guest blanked (queued ones withdrawn), the guest's details scrubbed from the webhook events that
// showed them (the audit log is append-only and keeps its entries); payments, refunds and disputes kept, as accounting and tax law require. The
// erasure is audited and sent on to webhooks (guest.erased) without the address.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Db, Tx } from '../db/connection.js';
import { lockForTransaction } from '../db/advisory-lock.js';
import { Conflict, NotFound } from '../http/errors.js';
import { audit, type AuditActor } from '../audit/log.js';
import { eraseFromOutbox, recordEvents } from '../events/outbox.js';
import { nowMillis, toSeconds, type UnixMillis } from '../lib/clock.js';
import { bookingReferences, findBookingRecords } from '../bookings/index.js';
import { withTickets } from '../bookings/service.js';
import { bookingAnswers } from '../questions/answers.js';
import { bookingPaymentView, refundView } from '../payments/view.js';
import type { GuestErasure, GuestErasureReason, GuestExport } from './schemas.js';
import {
  allocatedBookings,
  emailsOf,
  ERASED,
  eraseGuestRows,
  findGuestRows,
  liveUpcomingReferences,
  paymentsOf,
  pendingOutbox,
  eventsAbout,
  rewriteOutbox,
  rewriteEventData,
  termsAcceptancesOf,
  uploadsOf,
  waitlistEntriesOf,
  type GuestRows,
} from './store.js';

const iso = (ms: UnixMillis) => new Date(Number(ms)).toISOString();
const holdsNothing = (rows: GuestRows) => rows.bookingIds.length + rows.waitlistEntryIds.length + rows.basketIds.length === 0;
const nothingHeld = () => new NotFound('slotbook holds no booking, waitlist place or basket of this operator with this e-mail address');

/** Everything held about the guest of `operatorId` with this address; 404 when nothing is. */
export async function exportGuest(db: Db, operatorId: number, email: string): Promise<GuestExport> {
  const read = db.kysely;
  const rows = await findGuestRows(read, operatorId, email);
  if (holdsNothing(rows)) throw nothingHeld();
  const now = nowMillis();
  const records = await findBookingRecords(read, operatorId, rows.bookingIds);
  const bookings = await withTickets(read, records, toSeconds(now));
  const acceptances = new Map((await termsAcceptancesOf(read, rows.bookingIds)).map((row) => [row.booking_id, row]));
  const answers = await Promise.all(records.map((record) => bookingAnswers(read, operatorId, { id: record.id, reference: record.reference })));
  const references = new Map(records.map((record) => [record.id, record.reference]));
  // A file is the booking's whose answer names it (with the address staff download it from), or the one it was uploaded through.
  const answeredFiles = new Map(
    answers.flatMap((list, index) =>
      list.flatMap((answer) =>
        answer.File ? [[answer.File.FileID, { reference: records[index]!.reference, download: answer.File.Download }] as const] : [],
      ),
    ),
  );
  const uploads = (await uploadsOf(read, operatorId, rows)).map((file) => {
    const answered = answeredFiles.get(file.public_id);
    return {
      FileID: file.public_id,
      ContentType: file.content_type,
      Size: Number(file.size),
      UploadedAt: iso(file.created_at),
      BookingReference: answered?.reference ?? (file.booking_id === null ? null : (references.get(file.booking_id) ?? null)),
      Download: answered?.download ?? null,
    };
  });
  const { payments, refunds } = await paymentsOf(read, operatorId, rows);
  const allocations = await allocatedBookings(
    read,
    payments.map((p) => p.id),
  );
  const paidIds = [...new Set([...allocations.values()].flat().concat(payments.flatMap((p) => (p.booking_id === null ? [] : [p.booking_id]))))];
  const paidReferences = new Map([...references, ...(await bookingReferences(read, operatorId, paidIds.concat(refunds.map((r) => r.booking_id))))]);
  const emails = await emailsOf(read, operatorId, email, rows);
  const exported: GuestExport = {
    Email: email,
    ExportedAt: iso(now),
    Bookings: bookings.map((booking, index) => {
      const accepted = acceptances.get(records[index]!.id);
      return {
        Booking: booking,
        WaiverAnswers: answers[index]!,
        TermsAccepted: accepted ? { AcceptedAt: iso(accepted.accepted_at), TermsUrl: accepted.terms_url, PrivacyUrl: accepted.privacy_url } : null,
      };
    }),
    Uploads: uploads,
    WaitlistEntries: (await waitlistEntriesOf(read, rows.waitlistEntryIds)).map((entry) => ({
      ID: entry.id,
      ActivityID: entry.activity_public_id,
      ActivityName: entry.activity_name,
      Date: entry.date,
      Time: entry.time,
      Participants: entry.participants,
      Status: entry.status,
      CreatedAt: iso(entry.created_at),
    })),
    Emails: emails.map((row) => ({
      ID: row.id,
      Kind: row.kind,
      To: row.to_address,
      Subject: row.subject,
      Status: row.status,
      BookingReference: row.booking_reference,
      CreatedAt: iso(row.created_at),
      SentAt: row.sent_at === null ? null : iso(row.sent_at),
    })),
    Payments: payments.map((payment) => {
      const paid = allocations.get(payment.id) ?? (payment.booking_id === null ? [] : [payment.booking_id]);
      return {
        ...bookingPaymentView(payment),
        BookingReferences: paid.map((id) => paidReferences.get(id)).filter((ref): ref is string => ref !== undefined),
        Refunds: refunds
          .filter((refund) => refund.payment_id === payment.id)
          .map((refund) => refundView(refund, paidReferences.get(refund.booking_id) ?? '', payment.provider)),
      };
    }),
  };
  // Handing out a guest's data is itself recorded: who asked, and which bookings it covered (not the address).
  await db.write((tx) =>
    audit(tx, {
      operatorId,
      action: 'guest.export',
      resource: { type: 'guest', id: null },
      after: { BookingReferences: records.map((r) => r.reference), WaitlistEntryIDs: rows.waitlistEntryIds },
    }),
  );
  return exported;
}

/**
 * Erases the guest of `operatorId` with this address (see the file's comment). 409 while one of their
 * bookings still holds seats of a timeslot not yet over: the operator cancels it (or lets it happen) first.
 */
export async function eraseGuest(
  db: Db,
  operatorId: number,
  email: string,
  reason: GuestErasureReason = 'request',
  as?: AuditActor,
): Promise<GuestErasure> {
  return db.write((tx) => eraseInTransaction(tx, operatorId, email, reason, as));
}

/** The erasure inside the caller's write transaction (the retention job runs it for each guest it finds). */
export async function eraseInTransaction(
  tx: Tx,
  operatorId: number,
  email: string,
  reason: GuestErasureReason,
  as?: AuditActor,
  now = nowMillis(),
): Promise<GuestErasure> {
  // Two erasures of one guest (two processes' retention jobs, a request meanwhile) take turns.
  await lockForTransaction(tx, `guest-erasure:${operatorId}:${email.toLowerCase()}`);
  const read: Kysely<Database> = tx;
  const rows = await findGuestRows(read, operatorId, email);
  if (holdsNothing(rows)) throw nothingHeld();
  const live = await liveUpcomingReferences(read, rows.bookingIds, toSeconds(now));
  if (live.length > 0) {
    throw new Conflict(
      `The guest still has bookings to come (${live.join(', ')}): cancel them first, or erase the guest once they are over. Their details are needed to run them.`,
    );
  }
  const byId = await bookingReferences(read, operatorId, rows.bookingIds);
  const references = rows.bookingIds.flatMap((id) => byId.get(id) ?? []);
  const emails = await emailsOf(read, operatorId, email, rows);
  const uploads = await uploadsOf(read, operatorId, rows);
  const { payments } = await paymentsOf(read, operatorId, rows);
  const counts = await eraseGuestRows(
    tx,
    operatorId,
    rows,
    emails.map((e) => e.id),
    uploads.map((u) => u.id),
  );
  await scrubRecords(tx, operatorId, email, rows, references);
  const erasure: GuestErasure = {
    Reason: reason,
    BookingReferences: references,
    WaitlistEntryIDs: rows.waitlistEntryIds,
    UploadsDeleted: counts.uploads,
    AnswersDeleted: counts.answers,
    EmailsErased: counts.emails,
    PaymentsKept: payments.length,
    ErasedAt: iso(now),
  };
  await audit(tx, { operatorId, action: 'guest.erase', resource: { type: 'guest', id: null }, after: erasure }, as);
  await recordEvents(tx, operatorId, [
    { type: 'guest.erased', resource: `guest-erasure:${now}`, audience: 'operator', data: JSON.stringify(erasure) },
  ]);
  return erasure;
}

const ERASED_CUSTOMER = { FirstName: ERASED.firstName, LastName: ERASED.lastName, Email: ERASED.email, Phone: ERASED.phone };

/** A copy of a stored JSON value with every `Customer` replaced and every mention of the address erased. */
export function scrubbed(value: unknown, email: string): unknown {
  if (typeof value === 'string') return value.toLowerCase() === email.toLowerCase() ? ERASED.email : value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, email));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
        key,
        key === 'Customer' && inner !== null && typeof inner === 'object' ? { ...ERASED_CUSTOMER } : scrubbed(inner, email),
      ]),
    );
  }
  return value;
}

function scrubText(text: string | null, email: string): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(scrubbed(JSON.parse(text), email));
  } catch {
    return text;
  }
}

/**
 * The webhook events that showed the guest's bookings, places and baskets, scrubbed. The audit log is not:
 * it is append-only (a database trigger refuses any change), the record of who did what (docs/privacy.md).
 */
async function scrubRecords(tx: Tx, operatorId: number, email: string, rows: GuestRows, references: string[]): Promise<void> {
  const resources = [
    ...references.map((ref) => `booking:${ref}`),
    ...rows.waitlistEntryIds.map((id) => `waitlist:${id}`),
    ...rows.basketIds.map((id) => `order:${id}`),
  ];
  const events = await eventsAbout(tx, operatorId, resources);
  // Events written but not yet dispatched carry the rows as they were: erased there too.
  const contact = {
    customer_first_name: ERASED.firstName,
    customer_last_name: ERASED.lastName,
    customer_email: ERASED.email,
    customer_phone: ERASED.phone,
  };
  for (const row of await pendingOutbox(tx, operatorId)) {
    const text = eraseFromOutbox(row.events, new Set(rows.bookingIds), new Set(resources), contact, (value) => scrubbed(value, email));
    if (text !== row.events) await rewriteOutbox(tx, row.id, text);
  }
  for (const event of events) {
    const data = scrubText(event.data, email);
    if (data !== null && data !== event.data) await rewriteEventData(tx, event.id, data);
  }
}

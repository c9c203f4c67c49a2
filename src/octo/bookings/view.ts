// A slotbook booking as an OCTo Booking. The seats, status, tickets and customer are the booking's own
// (so the dashboard, the partner API and OCTo always tell the same story); the uuid, notes, unit items
// and the contact fields without a column come from octo_bookings.
import type { ActivityRow } from '../../catalog/index.js';
import type { LiveTimeslotRow } from '../../availability/index.js';
import type { BookingRecord } from '../../bookings/index.js';
import { effectiveStatus } from '../../bookings/view.js';
import type { BookingTicketRow, TicketTypeRow } from '../../catalog/index.js';
import { checkinLines, firstCheckinAt, type BookingCheckinRow, type CheckinLine } from '../../bookings/checkin.js';
import { toAvailability } from '../catalog/view.js';
import { guestOf, toContact } from './contact.js';
import type { Wants } from '../http.js';
import { pricing } from '../catalog/pricing.js';
import { parseUnitItems, type OctoBookingRow } from './store.js';
import type { Contact, OctoBooking, QuestionAnswer } from './schemas.js';
import { DELIVERY_FORMAT, DELIVERY_METHOD, OPTION_ID, REDEMPTION_METHOD } from '../terms.js';
import { latest, toMillis, type UnixMillis, type UnixSeconds } from '../../lib/clock.js';

const STATUS = { on_hold: 'ON_HOLD', confirmed: 'CONFIRMED', cancelled: 'CANCELLED', expired: 'EXPIRED' } as const;

/** ISO 8601 in UTC to the second, as OCTo writes it (2030-05-01T08:00:00Z). */
export const utcIso = (ms: UnixMillis): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export const EMPTY_CONTACT: Contact = {
  fullName: null,
  firstName: null,
  lastName: null,
  emailAddress: null,
  phoneNumber: null,
  locales: [],
  postalCode: null,
  country: null,
  notes: null,
};

export interface OctoBookingParts {
  record: BookingRecord;
  octo: OctoBookingRow;
  activity: ActivityRow;
  timeslot: LiveTimeslotRow;
  /** The activity's ticket types (for the availability's unit prices). */
  types: TicketTypeRow[];
  /** The booking's tickets as sold: each unit item is priced at its type's price there. */
  tickets: BookingTicketRow[];
  /** Its check-ins at the door (bookings/checkin.ts): a checked-in booking reads REDEEMED. */
  checkins?: BookingCheckinRow[];
  /** With octo/questions: the activity's questions and the booking's answers. */
  questionAnswers?: QuestionAnswer[];
}

/**
 * VOUCHER is the delivery method, so every booking has a voucher object (OCTo asks for one whenever
 * VOUCHER is offered): redeemed at the manifest, and with the QR code of the reference once confirmed;
 * a hold, an expired hold or a cancelled booking has nothing to show at the door yet, so no delivery option.
 */
function voucherOf(status: string, reference: string, redeemedAt: string | null) {
  const deliveryOptions = status === 'CONFIRMED' || status === 'REDEEMED' ? [{ deliveryFormat: DELIVERY_FORMAT, deliveryValue: reference }] : [];
  return { redemptionMethod: REDEMPTION_METHOD, utcRedeemedAt: redeemedAt, deliveryOptions };
}

/**
 * Each unit item's redemption: of the items of a unit, as many as that ticket type has checked in read
 * REDEEMED (in the items' order: slotbook counts arrivals per ticket type, not per named holder).
 */
function unitRedemptions(lines: CheckinLine[]): (unitId: string) => string | null {
  const left = new Map(lines.map((line) => [line.code, { count: line.checkedIn, at: line.checkedInAt }]));
  return (unitId) => {
    const line = left.get(unitId);
    if (!line || line.count === 0 || line.at === null) return null;
    line.count -= 1;
    return utcIso(line.at);
  };
}

export function toOctoBooking(parts: OctoBookingParts, now: UnixSeconds, wants: Wants): OctoBooking {
  const { record, octo, activity, timeslot, types, tickets } = parts;
  const lines = checkinLines(tickets, parts.checkins ?? []);
  const firstCheckin = firstCheckinAt(lines);
  const booked = STATUS[effectiveStatus(record, now)];
  // A confirmed booking someone was checked in on has been used at the door: OCTo's REDEEMED.
  const redeemedAt = booked === 'CONFIRMED' && firstCheckin !== null ? utcIso(firstCheckin) : null;
  const status = redeemedAt === null ? booked : 'REDEEMED';
  const redemptionOf = unitRedemptions(redeemedAt === null ? [] : lines);
  const live = status === 'ON_HOLD' || status === 'CONFIRMED';
  const availability = toAvailability(timeslot, activity, types, now, wants);
  const priceOf = new Map(tickets.map((ticket) => [ticket.code, ticket]));
  const currency = tickets[0]?.currency ?? activity.currency;
  const total = tickets.reduce((sum, ticket) => sum + ticket.quantity * ticket.unit_price, 0);
  return {
    id: record.reference,
    uuid: octo.uuid,
    testMode: false,
    resellerReference: record.payment_reference,
    supplierReference: record.reference,
    status,
    utcCreatedAt: utcIso(record.created_at),
    utcUpdatedAt: utcIso(
      latest(
        record.created_at,
        octo.updated_at,
        record.cancelled_at ?? record.created_at,
        (redeemedAt === null ? null : firstCheckin) ?? record.created_at,
      ),
    ),
    utcExpiresAt: status === 'ON_HOLD' && record.hold_expires_at !== null ? utcIso(toMillis(record.hold_expires_at)) : null,
    utcRedeemedAt: redeemedAt,
    utcConfirmedAt: octo.confirmed_at === null ? null : utcIso(octo.confirmed_at),
    productId: record.activity_public_id,
    optionId: OPTION_ID,
    // Like the option's cancellation cutoff of 0 hours: until the timeslot starts (opening hours: closes).
    cancellable: live && timeslot.bookable_until > now,
    cancellation:
      status === 'CANCELLED' ? { refund: 'FULL', reason: octo.cancel_reason, utcCancelledAt: utcIso(record.cancelled_at ?? octo.updated_at) } : null,
    freesale: false,
    availabilityId: availability.id,
    availability,
    contact: toContact(guestOf(record, octo)),
    notes: octo.notes,
    deliveryMethods: [DELIVERY_METHOD],
    voucher: voucherOf(status, record.reference, redeemedAt),
    unitItems: parseUnitItems(octo).map((item) => {
      const itemRedeemedAt = redemptionOf(item.unitId);
      return {
        uuid: item.uuid,
        resellerReference: item.resellerReference,
        supplierReference: null,
        unitId: item.unitId,
        status: itemRedeemedAt === null && status === 'REDEEMED' ? 'CONFIRMED' : status,
        utcRedeemedAt: itemRedeemedAt,
        contact: item.contact ?? EMPTY_CONTACT,
        ticket: null,
        ...(wants.pricing && { pricing: pricing(priceOf.get(item.unitId)?.unit_price ?? 0, currency) }),
        ...(wants.questions && { questionAnswers: [] }),
      };
    }),
    ...(wants.pricing && { pricing: pricing(total, currency) }),
    ...(wants.questions && { questionAnswers: parts.questionAnswers ?? [] }),
  };
}

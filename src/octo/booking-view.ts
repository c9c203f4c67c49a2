// A slotbook booking as an OCTo Booking. The seats, status and customer are the booking's own (so the
// dashboard, the partner API and OCTo always tell the same story); the uuid, notes and unit items come
// from octo_bookings.
import type { ActivityRow } from '../catalog/store.js';
import type { LiveTimeslotRow } from '../availability/store.js';
import type { BookingRecord } from '../bookings/store.js';
import { effectiveStatus } from '../bookings/view.js';
import { toAvailability } from './availability.js';
import { priceOf } from './pricing.js';
import { parseUnitItems, type OctoBookingRow } from './store.js';
import type { Contact, OctoBooking } from './schemas.js';
import { DELIVERY_FORMAT, DELIVERY_METHOD, OPTION_ID, REDEMPTION_METHOD } from './terms.js';

const STATUS = { on_hold: 'ON_HOLD', confirmed: 'CONFIRMED', cancelled: 'CANCELLED', expired: 'EXPIRED' } as const;

/** ISO 8601 in UTC to the second, as OCTo writes it (2030-05-01T08:00:00Z). */
export const utcIso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const orNull = (text: string | null | undefined): string | null => (text ? text : null);

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

function contactOf(record: BookingRecord): Contact {
  const fullName = [record.customer_first_name, record.customer_last_name].filter(Boolean).join(' ');
  return {
    ...EMPTY_CONTACT,
    fullName: orNull(fullName),
    firstName: orNull(record.customer_first_name),
    lastName: orNull(record.customer_last_name),
    emailAddress: orNull(record.customer_email),
    phoneNumber: orNull(record.customer_phone),
  };
}

export interface OctoBookingParts {
  record: BookingRecord;
  octo: OctoBookingRow;
  activity: ActivityRow;
  timeslot: LiveTimeslotRow;
}

export function toOctoBooking({ record, octo, activity, timeslot }: OctoBookingParts, now: number, pricing: boolean): OctoBooking {
  const status = STATUS[effectiveStatus(record, now)];
  const live = status === 'ON_HOLD' || status === 'CONFIRMED';
  const voucher =
    status === 'CONFIRMED'
      ? { redemptionMethod: REDEMPTION_METHOD, utcRedeemedAt: null, deliveryOptions: [{ deliveryFormat: DELIVERY_FORMAT, deliveryValue: record.reference }] }
      : null;
  const availability = toAvailability(timeslot, activity, now, pricing);
  return {
    id: record.reference,
    uuid: octo.uuid,
    testMode: false,
    resellerReference: record.payment_reference,
    supplierReference: record.reference,
    status,
    utcCreatedAt: utcIso(record.created_at),
    utcUpdatedAt: utcIso(Math.max(record.created_at, octo.updated_at, record.cancelled_at ?? 0)),
    utcExpiresAt: status === 'ON_HOLD' && record.hold_expires_at !== null ? utcIso(record.hold_expires_at * 1000) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: octo.confirmed_at === null ? null : utcIso(octo.confirmed_at),
    productId: record.activity_public_id,
    optionId: OPTION_ID,
    // Like the option's cancellation cutoff of 0 hours: until the timeslot starts.
    cancellable: live && record.starts_at > now,
    cancellation:
      status === 'CANCELLED'
        ? { refund: 'FULL', reason: octo.cancel_reason, utcCancelledAt: utcIso(record.cancelled_at ?? octo.updated_at) }
        : null,
    freesale: false,
    availabilityId: availability.id,
    availability,
    contact: contactOf(record),
    notes: octo.notes,
    deliveryMethods: [DELIVERY_METHOD],
    voucher,
    unitItems: parseUnitItems(octo).map((item) => ({
      uuid: item.uuid,
      resellerReference: item.resellerReference,
      supplierReference: null,
      unitId: item.unitId,
      status,
      utcRedeemedAt: null,
      contact: EMPTY_CONTACT,
      ticket: null,
      ...(pricing && { pricing: priceOf(activity) }),
    })),
    ...(pricing && { pricing: priceOf(activity, record.participants) }),
  };
}

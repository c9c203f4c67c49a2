// The fixed terms on which slotbook sells through OCTo, named once for the products, availability and
// bookings that state them.

/** Every product has one option. Its units are the activity's ticket types (unit id = the type's code). */
export const OPTION_ID = 'DEFAULT';
/** The voucher is a QR code of the booking reference, checked against the operator's bookings list. */
export const DELIVERY_FORMAT = 'QRCODE';
export const DELIVERY_METHOD = 'VOUCHER';
export const REDEMPTION_METHOD = 'MANIFEST';
/** A reservation holds its seats this long unless expirationMinutes says otherwise ... */
export const DEFAULT_HOLD_MINUTES = 30;
/** ... and never longer than the partner API's longest hold (a longer request is held this long). */
export { MAX_HOLD_MINUTES } from '../bookings/schemas.js';
/** OCTo's unit types, by the category of a ticket type. */
export const UNIT_TYPE = {
  adult: 'ADULT',
  child: 'CHILD',
  youth: 'YOUTH',
  infant: 'INFANT',
  senior: 'SENIOR',
  student: 'STUDENT',
  military: 'MILITARY',
  family: 'FAMILY',
  other: 'OTHER',
} as const;

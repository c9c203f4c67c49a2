// The fixed terms on which slotbook sells through OCTo, named once for the products, availability and
// bookings that state them.

/** Every product has one option. */
export const OPTION_ID = 'DEFAULT';
/** ... with one unit: slotbook sells one kind of seat per activity, at UnitPrice, without age rules. */
export const UNIT_ID = 'adult';
/** What a confirmation must carry for the operator's bookings list (the phone number is optional). */
export const REQUIRED_CONTACT_FIELDS = ['firstName', 'lastName', 'emailAddress'] as const;
/** The voucher is a QR code of the booking reference, checked against the operator's bookings list. */
export const DELIVERY_FORMAT = 'QRCODE';
export const DELIVERY_METHOD = 'VOUCHER';
export const REDEMPTION_METHOD = 'MANIFEST';
/** A reservation holds its seats this long unless expirationMinutes says otherwise ... */
export const DEFAULT_HOLD_MINUTES = 30;
/** ... and never longer than the partner API's longest hold (a longer request is held this long). */
export { MAX_HOLD_MINUTES } from '../bookings/schemas.js';

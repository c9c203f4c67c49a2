// The bookings domain's face for the flows and the channels: the lifecycle's commands and their refusals,
// the one policy, and the service's reads and writes. What is not here is the domain's own business.
export {
  cancel,
  cancelDepartureBookings,
  confirm,
  confirmPaidHold,
  expireHolds,
  extendHold,
  holdCeiling,
  holdUntil,
  type Caller,
} from './lifecycle/commands.js';
export { amendBooking, type AmendmentTarget } from './lifecycle/move.js';
export { isOverAlready, orThrow, refusalProblem, refusalSentence, type Outcome, type Refusal, type RefusalCode } from './lifecycle/refusals.js';
export { prepareDraft, type BookingDraft, type BookingOrigin } from './lifecycle/draft.js';
export { placeBooking, type Placement } from './lifecycle/place.js';
export { draftOfRequest } from './request-draft.js';
/** Placing a draft, and reserving it under a marketplace's reference (the one recipe of retries and twins). */
export { placeDraft, reserveUnderReference, type ExternalReference, type ReferenceLedger, type Reserved } from './lifecycle/reserve-external.js';
export { POLICY, refusalOf, type BookingFacts, type CallerKind, type PolicyAction } from './lifecycle/policy.js';
/** Locks the booking's row for the rest of the transaction (money written against it waits its turn). */
export { lockBooking } from './lifecycle/store.js';
export { releaseLapsedHolds } from './lifecycle/seat-ledger.js';
export {
  bookingReferences,
  bookingsForDigest,
  changeBookingDetails,
  findBooking,
  findBookingRecords,
  findBookingForEmail,
  findBookingId,
  holdCounts,
  newestConfirmedBookingId,
  setWaiverStatus,
  type BookingDetails,
  type BookingForDigest,
  type BookingForEmail,
  type BookingRecord,
  type BookingRow,
} from './store.js';

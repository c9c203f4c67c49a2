// The manifest and check-in records of the API (generated from /openapi.json: web/src/api-types) and the
// calls the pages make.
import { api, request, type Timeslot } from './api';
import { formatMoney } from './format';
import type { Answer, RequestBody, Schemas } from './api-types';

export type ManifestTimeslot = Schemas['ManifestTimeslot'];
export type ManifestEntry = Schemas['ManifestEntry'];
export type ManifestTicket = ManifestEntry['Tickets'][number];
export type Attendance = ManifestEntry['Attendance'];
export type ManifestDay = Answer<'/api/v2/admin/manifests', 'get'>;
export type TimeslotManifest = Answer<'/api/v2/admin/manifests/{TimeslotID}', 'get'>;
export type CheckinAnswer = Answer<'/api/v2/admin/check-in/{BookingReference}', 'get'>;
export type PaymentState = ManifestEntry['PaymentState'];
export type DueAmount = ManifestTimeslot['Due'][number];
export type DeskPayment = Schemas['DeskPayment'];
export type DeskPaymentBody = RequestBody<'/api/v2/admin/bookings/{BookingReference}/payments', 'post'>;

export const PAYMENT_STATE_LABELS: Record<PaymentState, string> = {
  unpaid: 'Unpaid',
  part_paid: 'Part paid',
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  partner: 'Paid to partner',
};
export const PAYMENT_STATE_TONES: Record<PaymentState, string> = {
  unpaid: 'danger',
  part_paid: 'warning',
  paid: 'success',
  partially_refunded: 'neutral',
  refunded: 'neutral',
  partner: 'neutral',
};
export const DESK_METHOD_LABELS: Record<DeskPaymentBody['Method'], string> = {
  cash: 'Cash',
  card_terminal: 'Card terminal',
  voucher: 'Voucher',
  invoice: 'Invoice paid',
};

/** What is due, per currency: "80.00 EUR + 3,000 JPY"; empty when nothing is. */
export const dueText = (due: DueAmount[]) => due.map((line) => formatMoney(line.AmountMinorUnits, line.Currency)).join(' + ');

/** Records money taken at the desk for a booking (the balance at check-in). */
export const recordPayment = (reference: string, body: DeskPaymentBody) =>
  api.post<DeskPayment>(`/api/v2/admin/bookings/${reference}/payments`, body);

/** The waiver as the door sees it: signed, missing (required answers not given), or nothing asked of the guest. */
export const waiverBadge = (entry: Pick<ManifestEntry, 'WaiverStatus' | 'WaiverMissing'>): { tone: string; label: string } =>
  entry.WaiverStatus === 'complete'
    ? { tone: 'success', label: 'Signed' }
    : entry.WaiverMissing
      ? { tone: 'warning', label: 'Waiver missing' }
      : { tone: 'neutral', label: 'Not required' };

export const ATTENDANCE_LABELS: Record<Attendance, string> = {
  'not-arrived': 'Not arrived',
  partial: 'Partly in',
  'checked-in': 'Checked in',
  'no-show': 'No-show',
};
export const ATTENDANCE_TONES: Record<Attendance, string> = {
  'not-arrived': 'neutral',
  partial: 'warning',
  'checked-in': 'success',
  'no-show': 'danger',
};

export const loadDay = (date: string | undefined, signal?: AbortSignal) => api.get<ManifestDay>('/api/v2/admin/manifests', { Date: date }, signal);
/** The timeslot as the activity calendar has it (capacity, cancellation): for cancelling the departure. */
export const loadTimeslot = (timeslotId: number, signal?: AbortSignal) =>
  api.get<Timeslot>(`/api/v2/admin/timeslots/${timeslotId}`, undefined, signal);
export const loadManifest = (timeslotId: number, signal?: AbortSignal) =>
  api.get<TimeslotManifest>(`/api/v2/admin/manifests/${timeslotId}`, undefined, signal);
export const lookUp = (reference: string, signal?: AbortSignal) =>
  api.get<CheckinAnswer>(`/api/v2/admin/check-in/${encodeURIComponent(reference)}`, undefined, signal);

/**
 * Everyone in (no counts), or these counts per ticket type (absolute). `waiverConfirmed`: staff confirmed
 * that a guest whose waiver is pending may take part (the server refuses otherwise, naming WaiverConfirmed).
 */
export const checkIn = (reference: string, tickets?: { Type: string; CheckedIn: number }[], waiverConfirmed = false) =>
  api.post<CheckinAnswer>(`/api/v2/admin/bookings/${reference}/check-in`, {
    ...(tickets && { Tickets: tickets }),
    ...(waiverConfirmed && { WaiverConfirmed: true }),
  });
export const undoCheckIn = (reference: string) => request<CheckinAnswer>('DELETE', `/api/v2/admin/bookings/${reference}/check-in`);

/** A reference as typed or scanned: upper case, BK- added when only the 8 characters were given. */
export function normaliseReference(text: string): string {
  const bare = text.trim().toUpperCase().replace(/\s+/g, '');
  return /^[A-Z0-9]{8}$/.test(bare) ? `BK-${bare}` : bare;
}

export const REFERENCE_PATTERN = /^BK-[A-HJ-NP-Z2-9]{8}$/;

// The manifest and check-in records of the API (generated from /openapi.json: web/src/api-types) and the
// calls the pages make.
import { api, request } from './api';
import type { Answer, Schemas } from './api-types';

export type ManifestTimeslot = Schemas['ManifestTimeslot'];
export type ManifestEntry = Schemas['ManifestEntry'];
export type ManifestTicket = ManifestEntry['Tickets'][number];
export type Attendance = ManifestEntry['Attendance'];
export type ManifestDay = Answer<'/api/v2/admin/manifests', 'get'>;
export type TimeslotManifest = Answer<'/api/v2/admin/manifests/{TimeslotID}', 'get'>;
export type CheckinAnswer = Answer<'/api/v2/admin/check-in/{BookingReference}', 'get'>;

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
export const loadManifest = (timeslotId: number, signal?: AbortSignal) =>
  api.get<TimeslotManifest>(`/api/v2/admin/manifests/${timeslotId}`, undefined, signal);
export const lookUp = (reference: string, signal?: AbortSignal) =>
  api.get<CheckinAnswer>(`/api/v2/admin/check-in/${encodeURIComponent(reference)}`, undefined, signal);

/** Everyone in (no counts), or these counts per ticket type (absolute). */
export const checkIn = (reference: string, tickets?: { Type: string; CheckedIn: number }[]) =>
  api.post<CheckinAnswer>(`/api/v2/admin/bookings/${reference}/check-in`, tickets ? { Tickets: tickets } : {});
export const undoCheckIn = (reference: string) => request<CheckinAnswer>('DELETE', `/api/v2/admin/bookings/${reference}/check-in`);

/** A reference as typed or scanned: upper case, BK- added when only the 8 characters were given. */
export function normaliseReference(text: string): string {
  const bare = text.trim().toUpperCase().replace(/\s+/g, '');
  return /^[A-Z0-9]{8}$/.test(bare) ? `BK-${bare}` : bare;
}

export const REFERENCE_PATTERN = /^BK-[A-HJ-NP-Z2-9]{8}$/;

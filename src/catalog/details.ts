// What guests need to know before they pay: where to meet, what the price includes,
// what to bring. Kept as JSON on the activity (migration 030); the partner API's products and the booking
// pages show them as the operator wrote them.
import type { FieldError } from '../http/errors.js';
import type { ActivityRow } from './store.js';
import type { MeetingPoint, Product } from './schemas.js';

type Details = Pick<Product, 'MeetingPoint' | 'Inclusions' | 'WhatToBring'>;

export const detailsOf = (row: Pick<ActivityRow, 'meeting_point' | 'inclusions' | 'what_to_bring'>): Details => ({
  MeetingPoint: row.meeting_point === null ? null : (JSON.parse(row.meeting_point) as MeetingPoint),
  Inclusions: JSON.parse(row.inclusions) as string[],
  WhatToBring: JSON.parse(row.what_to_bring) as string[],
});

const trimmed = (lines: string[]) => lines.map((line) => line.trim()).filter((line) => line !== '');

/** The columns a create or change writes: only the fields it names. */
export function storedDetails(body: Partial<Details>): Partial<Pick<ActivityRow, 'meeting_point' | 'inclusions' | 'what_to_bring'>> {
  return {
    ...(body.MeetingPoint !== undefined && {
      meeting_point: body.MeetingPoint === null ? null : JSON.stringify({ ...body.MeetingPoint, Address: body.MeetingPoint.Address.trim() }),
    }),
    ...(body.Inclusions !== undefined && { inclusions: JSON.stringify(trimmed(body.Inclusions)) }),
    ...(body.WhatToBring !== undefined && { what_to_bring: JSON.stringify(trimmed(body.WhatToBring)) }),
  };
}

/** Coordinates come in pairs (a latitude alone is no place), and an address is more than blanks. */
export function meetingPointErrors(point: MeetingPoint | null | undefined): FieldError[] {
  if (!point) return [];
  const errors: FieldError[] = [];
  if (point.Address.trim() === '') errors.push({ field: 'MeetingPoint.Address', message: 'MeetingPoint.Address must not be blank' });
  if ((point.Latitude === null) !== (point.Longitude === null))
    errors.push({ field: 'MeetingPoint', message: 'Give both MeetingPoint.Latitude and MeetingPoint.Longitude, or neither' });
  return errors;
}

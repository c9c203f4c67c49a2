// Check-in at the door: how many of each of a booking's ticket lines have arrived (booking_checkins,
// migration 016). Part of the bookings domain because it gates on the booking's status with a conditional
// write on its row: a check-in and a cancellation of the same booking serialize on that row, so a
// booking is never checked in after (or while) it is cancelled. Counts are absolute ("2 adults are in"),
// so a double tap or a retry writes nothing new. docs/checkin.md.
import type { Tx } from '../db/connection.js';
import { Conflict, DomainError, ValidationFailed, type FieldError } from '../http/errors.js';
import type { BookingTicketRow } from '../catalog/index.js';
import { bookingTicketsOf } from '../catalog/index.js';
import { timeslotsAskingRequired } from '../questions/index.js';
import { waiverMissing } from '../questions/waiver.js';
import { effectiveStatus } from './view.js';
import { checkinsOf, currentStatus, setCheckinCount, type BookingCheckinRow, type BookingRecord } from './store.js';
import { lockConfirmed } from './lifecycle/store.js';
import { earliest, toSeconds, type UnixMillis } from '../lib/clock.js';

export type { BookingCheckinRow };
/** Other domains read check-ins here, the check-in's own module. */
export { checkinsOf };

/** One ticket line of a booking with its check-in: `checkedIn` of `quantity` have arrived. */
export interface CheckinLine {
  ticketTypeId: number;
  code: string;
  name: string;
  quantity: number;
  checkedIn: number;
  /** Unix ms of the line's first check-in; null while nobody on it is in. */
  checkedInAt: UnixMillis | null;
}

/**
 * The ticket lines with their check-in. A count above the line's quantity (the tickets were amended
 * after the check-in) reads as the quantity: nobody is "more than in".
 */
export function checkinLines(tickets: BookingTicketRow[], checkins: BookingCheckinRow[]): CheckinLine[] {
  const byType = new Map(checkins.map((row) => [row.ticket_type_id, row]));
  return tickets.map((ticket) => {
    const row = byType.get(ticket.ticket_type_id);
    return {
      ticketTypeId: ticket.ticket_type_id,
      code: ticket.code,
      name: ticket.name,
      quantity: ticket.quantity,
      checkedIn: Math.min(row?.checked_in ?? 0, ticket.quantity),
      checkedInAt: row ? row.checked_in_at : null,
    };
  });
}

/** When the booking was first checked in (OCTo utcRedeemedAt): the earliest line's, or null. */
export function firstCheckinAt(lines: CheckinLine[]): UnixMillis | null {
  const [first, ...rest] = lines.filter((line) => line.checkedIn > 0 && line.checkedInAt !== null).map((line) => line.checkedInAt!);
  return first === undefined ? null : earliest(first, ...rest);
}

/**
 * What to check in: every ticket (`all`), nobody (`none`: undo), or a count per ticket type code.
 * `waiverConfirmed`: staff have seen that a guest whose waiver is pending may take part (a paper
 * waiver signed at the desk); without it, checking anyone of such a booking in is refused.
 */
export type CheckinRequest =
  | { kind: 'all'; waiverConfirmed?: boolean }
  | { kind: 'none' }
  | { kind: 'counts'; tickets: { Type: string; CheckedIn: number }[]; waiverConfirmed?: boolean };

/** The wanted count per ticket type ID; a count above a line's quantity or an unknown type is a 422 naming the field. */
function wantedCounts(tickets: BookingTicketRow[], request: CheckinRequest): Map<number, number> {
  if (request.kind !== 'counts') return new Map(tickets.map((ticket) => [ticket.ticket_type_id, request.kind === 'all' ? ticket.quantity : 0]));
  const errors: FieldError[] = [];
  const byCode = new Map(tickets.map((ticket) => [ticket.code, ticket]));
  const wanted = new Map<number, number>();
  request.tickets.forEach((item, index) => {
    const ticket = byCode.get(item.Type);
    if (!ticket) {
      errors.push({ field: `Tickets[${index}].Type`, message: `The booking has no ${item.Type} tickets; it has ${[...byCode.keys()].join(', ')}` });
    } else if (wanted.has(ticket.ticket_type_id)) {
      errors.push({ field: `Tickets[${index}].Type`, message: `${item.Type} is named twice` });
    } else if (item.CheckedIn > ticket.quantity) {
      errors.push({
        field: `Tickets[${index}].CheckedIn`,
        message: `At most ${ticket.quantity}: the booking has ${ticket.quantity} ${ticket.name} ticket(s)`,
      });
    } else {
      wanted.set(ticket.ticket_type_id, item.CheckedIn);
    }
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
  return wanted;
}

export interface CheckinOutcome {
  before: CheckinLine[];
  after: CheckinLine[];
  /** False when the request asked for what already was (a double tap, a retry): nothing was written. */
  changed: boolean;
}

/**
 * Sets the booking's check-in counts inside the caller's transaction. Only a confirmed booking can be
 * checked in or undone (409 otherwise: a cancelled booking's guests are not expected, a hold is not sold).
 * Lines not named in a `counts` request keep their count.
 */
export async function setCheckin(tx: Tx, booking: BookingRecord, request: CheckinRequest, nowMs: UnixMillis): Promise<CheckinOutcome> {
  if (!(await lockConfirmed(tx, booking.id))) {
    const current = (await currentStatus(tx, booking.id)) ?? booking;
    const status = effectiveStatus(current, toSeconds(nowMs));
    throw new Conflict(
      `Booking ${booking.reference} is ${status === 'on_hold' ? 'on hold' : status}: only a confirmed booking can be checked in or undone`,
    );
  }
  const tickets = (await bookingTicketsOf(tx, [booking.id])).get(booking.id) ?? [];
  const before = checkinLines(tickets, (await checkinsOf(tx, [booking.id])).get(booking.id) ?? []);
  const wanted = wantedCounts(tickets, request);
  const admitsMore = before.some((line) => (wanted.get(line.ticketTypeId) ?? line.checkedIn) > line.checkedIn);
  const confirmed = request.kind !== 'none' && request.waiverConfirmed === true;
  // The activity's questions are read only for a booking that may lack its waiver: a signed one (most at
  // the door) costs the check-in no query.
  const mayLack = admitsMore && !confirmed && booking.waiver_status !== 'complete';
  if (mayLack && waiverMissing(booking, await timeslotsAskingRequired(tx, booking.operator_id, [Number(booking.timeslot_id)]))) {
    const message = `Booking ${booking.reference} has no complete waiver: confirm the guest may take part (WaiverConfirmed: true) to check in`;
    throw new DomainError('conflict', message, [{ field: 'WaiverConfirmed', message }]);
  }
  let changed = false;
  for (const line of before) {
    const count = wanted.get(line.ticketTypeId);
    if (count === undefined || count === line.checkedIn) continue;
    changed = true;
    await setCheckinCount(tx, { bookingId: booking.id, ticketTypeId: line.ticketTypeId, operatorId: booking.operator_id }, count, nowMs);
  }
  const after = changed ? checkinLines(tickets, (await checkinsOf(tx, [booking.id])).get(booking.id) ?? []) : before;
  return { before, after, changed };
}

// A booking's ticket mix: which types, how many of each, at what price, and the people and seats they
// make. Every channel books through this: the partner API and the point of sale (Participants or
// Tickets), the online shop, and OCTo (one unit item per ticket).
import { Conflict, ValidationFailed, type FieldError } from '../../http/errors.js';
import type { TicketRequest } from './schemas.js';
import type { BookingTicketRow, TicketTypeRow } from './store.js';

export interface TicketLine {
  type: TicketTypeRow;
  quantity: number;
}

export interface TicketMix {
  /** In the order of the activity's types; only types with a quantity. */
  lines: TicketLine[];
  /** People the tickets admit (a booking's Participants). */
  people: number;
  /** Seats they take of the timeslot's capacity. */
  seats: number;
  /** Minor units of the activity's currency. */
  total: number;
}

export function mixOf(lines: TicketLine[]): TicketMix {
  const sorted = [...lines].filter((line) => line.quantity > 0).sort((a, b) => a.type.position - b.type.position || a.type.id - b.type.id);
  return {
    lines: sorted,
    people: sorted.reduce((sum, line) => sum + line.quantity * line.type.people, 0),
    seats: sorted.reduce((sum, line) => sum + (line.type.takes_seat === 1 ? line.quantity * line.type.people : 0), 0),
    total: sorted.reduce((sum, line) => sum + line.quantity * line.type.price, 0),
  };
}

/** Which rule a mix broke: channels with an error model of their own (GetYourGuide's) tell them apart. */
export type MixRule =
  | 'mix.unknown-type'
  | 'mix.repeated-type'
  | 'mix.below-minimum'
  | 'mix.above-maximum'
  | 'mix.requires-type'
  | 'mix.empty'
  | 'mix.too-many-people'
  /** Participants and Tickets both given, and they disagree. */
  | 'mix.people-mismatch';

/** A problem with one requested line (its index), or with the request as a whole (no index). */
export interface MixProblem {
  index?: number;
  part: 'Type' | 'Quantity';
  rule: MixRule;
  message: string;
  /** The limits the rule holds a line's type (its code) or the booking's people to. */
  limits?: { type?: string; min: number; max: number | null };
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * Checks requested quantities per type code against the activity's live types: known types, each once,
 * MinPerBooking and MaxPerBooking, Requires, at least one ticket, and at most `maxPeople` people.
 */
export function checkMix(
  types: TicketTypeRow[],
  requested: { code: string; quantity: number }[],
  maxPeople: number,
): { mix: TicketMix; problems: MixProblem[] } {
  const byCode = new Map(types.map((type) => [type.code, type]));
  const problems: MixProblem[] = [];
  const lines: TicketLine[] = [];
  const seen = new Set<string>();
  requested.forEach(({ code, quantity }, index) => {
    const type = byCode.get(code);
    if (!type) {
      problems.push({
        index,
        part: 'Type',
        rule: 'mix.unknown-type',
        message: `The activity has no ticket type "${code}"; it sells ${types.map((t) => `"${t.code}"`).join(', ')}`,
      });
      return;
    }
    if (seen.has(code)) {
      problems.push({ index, part: 'Type', rule: 'mix.repeated-type', message: `Ticket type "${code}" is listed more than once` });
      return;
    }
    seen.add(code);
    if (quantity === 0) return;
    const limits = { type: code, min: type.min_per_booking, max: type.max_per_booking };
    if (quantity < type.min_per_booking) {
      const message = `${type.name} tickets are sold at least ${type.min_per_booking} at a time`;
      problems.push({ index, part: 'Quantity', rule: 'mix.below-minimum', message, limits });
    }
    if (type.max_per_booking !== null && quantity > type.max_per_booking) {
      const message = `At most ${plural(type.max_per_booking, `${type.name} ticket`)} per booking`;
      problems.push({ index, part: 'Quantity', rule: 'mix.above-maximum', message, limits });
    }
    lines.push({ type, quantity });
  });
  const booked = new Set(lines.map((line) => line.type.code));
  requested.forEach(({ code }, index) => {
    const type = byCode.get(code);
    if (!type?.requires_code || !booked.has(code) || booked.has(type.requires_code)) return;
    const required = byCode.get(type.requires_code);
    problems.push({
      index,
      part: 'Type',
      rule: 'mix.requires-type',
      message: `${type.name} tickets must come with at least one ${required?.name ?? type.requires_code} ticket in the same booking`,
    });
  });
  const mix = mixOf(lines);
  if (problems.length === 0 && mix.people === 0) problems.push({ part: 'Quantity', rule: 'mix.empty', message: 'Book at least one ticket' });
  if (mix.people > maxPeople) {
    problems.push({
      part: 'Quantity',
      rule: 'mix.too-many-people',
      limits: { min: 1, max: maxPeople },
      message: `The tickets admit ${mix.people} ${mix.people === 1 ? 'person' : 'people'}; at most ${maxPeople} per booking for this activity`,
    });
  }
  return { mix, problems };
}

/** The activity's default type: what Participants books. */
export function defaultTypeOf(types: TicketTypeRow[]): TicketTypeRow {
  const type = types.find((candidate) => candidate.is_default === 1);
  if (!type) throw new Conflict('This activity has no ticket types on sale; the operator must add one');
  return type;
}

/**
 * The mix of a partner, point-of-sale or shop request: `Tickets`, or `Participants` of the default type.
 * With both, Participants must equal the people the tickets admit. Field errors name the request's fields
 * (Tickets[1].Quantity); they are returned, so the caller can report them with its other findings, and
 * so are the rules broken (`broken`, in the same order).
 */
export function requestedMix(
  types: TicketTypeRow[],
  request: { Participants?: number; Tickets?: TicketRequest[] },
  maxPeople: number,
): { mix?: TicketMix; errors: FieldError[]; broken: MixProblem[] } {
  if (request.Tickets === undefined) {
    const participants = request.Participants ?? 0;
    if (participants > maxPeople) {
      const message = `Participants must be at most ${maxPeople} for this activity`;
      const broken: MixProblem[] = [{ part: 'Quantity', rule: 'mix.too-many-people', message, limits: { min: 1, max: maxPeople } }];
      return { errors: [{ field: 'Participants', message }], broken };
    }
    // The default type's own limits (MinPerBooking, MaxPerBooking) hold for Participants too.
    const { mix, problems } = checkMix(types, [{ code: defaultTypeOf(types).code, quantity: participants }], maxPeople);
    return problems.length > 0
      ? { errors: problems.map((problem) => ({ field: 'Participants', message: problem.message })), broken: problems }
      : { mix, errors: [], broken: [] };
  }
  const { mix, problems } = checkMix(
    types,
    request.Tickets.map((line) => ({ code: line.Type, quantity: line.Quantity })),
    maxPeople,
  );
  const errors = problems.map((problem) => ({
    field: problem.index === undefined ? 'Tickets' : `Tickets[${problem.index}].${problem.part}`,
    message: problem.message,
  }));
  const broken = [...problems];
  if (errors.length === 0 && request.Participants !== undefined && request.Participants !== mix.people) {
    const message = `Participants (${request.Participants}) must equal the people the Tickets admit (${mix.people}); send one of them`;
    errors.push({ field: 'Participants', message });
    broken.push({ part: 'Quantity', rule: 'mix.people-mismatch', message });
  }
  return errors.length > 0 ? { errors, broken } : { mix, errors, broken };
}

export function throwIfInvalid(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationFailed(errors);
}

/** The rows that record a mix on a booking, with the prices and names of now. */
export function ticketRows(bookingId: number, mix: TicketMix, currency: string): BookingTicketRow[] {
  return mix.lines.map((line) => ({
    booking_id: bookingId,
    ticket_type_id: line.type.id,
    code: line.type.code,
    name: line.type.name,
    quantity: line.quantity,
    unit_price: line.type.price,
    currency,
    position: line.type.position,
  }));
}

/** Whether two mixes are the same tickets (same types, same quantities). */
export function sameTickets(a: { ticket_type_id: number; quantity: number }[], b: TicketMix): boolean {
  if (a.length !== b.lines.length) return false;
  const wanted = new Map(b.lines.map((line) => [line.type.id, line.quantity]));
  return a.every((row) => wanted.get(row.ticket_type_id) === row.quantity);
}

// Viator's calendar and availability check, computed from the seat ledger exactly as the partner API
// computes seats left (availability/service.ts toTimeslot: capacity less live bookings and live holds,
// lapsed holds counted as free, nothing once the timeslot has started or closed), so that a reserve asked
// for what the check showed is granted. One query of each product's timeslots in the range.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { listTimeslots, type LiveTimeslotRow } from '../availability/index.js';
import { availableSeats } from '../availability/service.js';
import { availabilityTypeOf } from '../catalog/service.js';
import type { ActivityRow } from '../catalog/index.js';
import { listTicketTypes } from '../catalog/index.js';
import { daysBetween, unixToZonedTime } from '../calendar/zoned-time.js';
import { minorDigits } from '../lib/money.js';
import { unixNow, type UnixSeconds } from '../lib/clock.js';
import { linesOf, mixOf, travelersFit } from './draft.js';
import { isPersonBand } from './age-bands.js';
import { findProducts, type ViatorCaller, type ViatorProduct } from './products.js';
import type {
  AvailabilityCheckRequest,
  AvailabilityCheckResponse,
  CalendarEvent,
  CalendarRequest,
  CalendarResponse,
  CheckEvent,
  EventCapacity,
  Price,
  TicketRequest,
  UnavailableReason,
} from './schemas.js';
import { ViatorBadRequest } from './errors.js';

/** The longest calendar Viator may ask for at once (a year and a day, as the partner API's ranges). */
export const MAX_CALENDAR_DAYS = 366;

/** An attraction with a daily capacity (its day's one timeslot): opening hours rather than a start time. */
export const isOpeningHours = (activity: ActivityRow): boolean => availabilityTypeOf(activity) === 'opening_hours';

/** Viator's timestamps: UTC with Z and no fraction. */
export const utcIso = (seconds: UnixSeconds): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** slotbook's minor units as Viator's decimal amount (2500 EUR: 25). */
export function major(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}

/** A departure Viator can be told of: not cancelled (absent means unavailable to Viator), with some capacity. */
const listable = (row: LiveTimeslotRow) => row.cancelled_at === null && row.capacity > 0;

/** Seats left now, as every channel counts them. */
const seatsLeft = (row: LiveTimeslotRow, _product: ViatorProduct, now: UnixSeconds): number => availableSeats(row, now);

/** The event's capacity for every offered type: per person (shared seats; a type that takes none per type) or per unit. */
export function capacityOf(row: LiveTimeslotRow, product: ViatorProduct, now: UnixSeconds): EventCapacity {
  const left = seatsLeft(row, product, now);
  if (product.unit) {
    const per = Math.max(1, product.unit.seatsPerTicket);
    const units = Math.floor(left / per);
    return {
      type: 'LIMITED',
      vacancies: [{ types: ['UNIT'], quantity: units, quantityType: 'PER_TYPE' }],
      original: Math.max(1, Math.floor(row.capacity / per)),
      remaining: units,
    };
  }
  const seated = product.offered.filter((o) => o.seatsPerTicket > 0).map((o) => o.band);
  const free = product.offered.filter((o) => o.seatsPerTicket === 0).map((o) => o.band);
  return {
    type: 'LIMITED',
    vacancies: [
      ...(seated.length > 0 ? [{ types: seated, quantity: left, quantityType: 'SHARED' as const }] : []),
      // A type that takes no seat (an infant on a lap) is sold while seats are left.
      ...(free.length > 0 ? [{ types: free, quantity: left, quantityType: 'PER_TYPE' as const }] : []),
    ],
    original: row.capacity,
    remaining: left,
  };
}

/** The price of the offered types (or only those asked for): per person, or per unit for a UNIT product. */
export function priceOf(product: ViatorProduct, bands?: Set<string>): Price {
  const { currency } = product.activity;
  if (product.unit) return { type: 'PER_UNIT_PRICE', retailPrice: major(product.unit.type.price, currency), maxTravelers: product.unit.type.people };
  return {
    type: 'PER_PERSON_PRICE',
    prices: product.offered
      .filter((o) => isPersonBand(o.band) && (!bands || bands.has(o.band)))
      .map((o) => ({ types: [o.band as Exclude<typeof o.band, 'UNIT'>], retailPrice: major(o.type.price, currency) })),
  };
}

/** Where the event stands in time: its start time (start times) or opening hours (a day's attraction). */
function whenOf(row: LiveTimeslotRow, activity: ActivityRow) {
  return isOpeningHours(activity)
    ? { openingHours: { coordinateStartTimes: false, hours: [{ from: row.time, to: unixToZonedTime(row.ends_at, activity.timezone) }] } }
    : { startTime: row.time };
}

function calendarEvent(row: LiveTimeslotRow, product: ViatorProduct, price: Price, now: UnixSeconds): CalendarEvent {
  const base = {
    ...whenOf(row, product.activity),
    bookingCutoff: utcIso(row.bookable_until),
    capacity: capacityOf(row, product, now),
    price,
  };
  if (row.bookable_until <= now) return { status: 'UNAVAILABLE', unavailableReason: 'PAST_BOOKING_CUTOFF', ...base };
  if (base.capacity.type === 'LIMITED' && base.capacity.remaining === 0) return { status: 'UNAVAILABLE', unavailableReason: 'SOLD_OUT', ...base };
  return { status: 'AVAILABLE', ...base };
}

function requireRange(startDate: string, endDate: string): void {
  const days = daysBetween(startDate, endDate);
  if (!Number.isFinite(days)) throw new ViatorBadRequest('startDate and endDate must be calendar dates (YYYY-MM-DD)');
  if (days < 0) throw new ViatorBadRequest('endDate must not be before startDate');
  if (days >= MAX_CALENDAR_DAYS) throw new ViatorBadRequest(`Ask for at most ${MAX_CALENDAR_DAYS} days at once (startDate to endDate)`);
}

/** Viator's calendar: every listable departure of each known option in the range; unknown options are left out, as Viator asks. */
export async function calendar(
  db: Kysely<Database>,
  caller: ViatorCaller,
  request: CalendarRequest,
): Promise<{ answer: CalendarResponse; unnotified: string[] }> {
  requireRange(request.startDate, request.endDate);
  const products = await findProducts(db, caller, request.productOptionIds);
  const now = unixNow();
  const productOptions: CalendarResponse['productOptions'] = [];
  for (const optionId of new Set(request.productOptionIds)) {
    const product = products.get(optionId);
    if (!product) continue;
    const rows = await listTimeslots(db, product.activity.id, { from: request.startDate, to: request.endDate }, now);
    const dates = new Map<string, CalendarEvent[]>();
    // Every event of the option has its one price (slotbook's prices do not vary by date).
    const price = priceOf(product);
    for (const row of rows) {
      if (!listable(row)) continue;
      const events = dates.get(row.date) ?? dates.set(row.date, []).get(row.date)!;
      events.push(calendarEvent(row, product, price, now));
    }
    productOptions.push({
      productOptionId: optionId,
      currency: product.activity.currency,
      dates: [...dates].map(([travelDate, events]) => ({ travelDate, events })),
    });
  }
  const unnotified = [...products.values()].filter((p) => !p.notified).map((p) => p.optionId);
  return { answer: { productOptions }, unnotified };
}

/** Why these tickets cannot be had at this departure now, if they cannot. */
function unavailableReason(
  row: LiveTimeslotRow,
  product: ViatorProduct,
  seats: number | undefined,
  fits: boolean,
  now: UnixSeconds,
): UnavailableReason | undefined {
  if (seats === undefined) return 'UNSUPPORTED_TICKET_COMBINATION';
  if (row.bookable_until <= now) return 'PAST_BOOKING_CUTOFF';
  const left = seatsLeft(row, product, now);
  if (left === 0) return 'SOLD_OUT';
  if (seats > left || !fits) return 'LIMITED_AVAILABILITY';
  return undefined;
}

/** The seats Viator's tickets take on this product, or undefined when the activity does not sell that mix. */
async function seatsFor(db: Kysely<Database>, product: ViatorProduct, tickets: TicketRequest[]) {
  const { lines } = linesOf(product, tickets);
  if (!lines) return { seats: undefined, lines: undefined };
  const { mix } = mixOf(product, await listTicketTypes(db, [product.activity.id]), lines);
  return { seats: mix?.seats, lines };
}

/** Viator's availability check: each asked departure with its price for the asked tickets, or the reason it cannot be had. */
export async function check(db: Kysely<Database>, caller: ViatorCaller, request: AvailabilityCheckRequest): Promise<AvailabilityCheckResponse> {
  const products = await findProducts(
    db,
    caller,
    request.productOptions.map((o) => o.productOptionId),
  );
  const now = unixNow();
  const bands = new Set(request.tickets.map((t) => t.type));
  const productOptions: AvailabilityCheckResponse['productOptions'] = [];
  for (const option of request.productOptions) {
    const product = products.get(option.productOptionId);
    if (!product) continue;
    const { seats, lines } = await seatsFor(db, product, request.tickets);
    const fits = lines ? travelersFit(product, lines, request.totalTravelers) : true;
    const wanted = option.startTimes && option.startTimes.length > 0 ? new Set(option.startTimes) : undefined;
    const rows = await listTimeslots(db, product.activity.id, { from: request.travelDate, to: request.travelDate }, now);
    const events: CheckEvent[] = [];
    for (const row of rows) {
      if (!listable(row)) continue;
      if (wanted && !isOpeningHours(product.activity) && !wanted.has(row.time)) continue;
      const when = isOpeningHours(product.activity) ? {} : { startTime: row.time };
      const base = { ...when, capacity: capacityOf(row, product, now), bookingCutoff: utcIso(row.bookable_until) };
      const reason = unavailableReason(row, product, seats, fits, now);
      events.push(
        reason ? { status: 'UNAVAILABLE', unavailableReason: reason, ...base } : { status: 'AVAILABLE', ...base, price: priceOf(product, bands) },
      );
    }
    productOptions.push({ productOptionId: option.productOptionId, currency: product.activity.currency, events });
  }
  return { productOptions };
}

// Slotbook's activities, ticket types, questions and timeslots as OCTo shows them: products with their
// one option and its units, the option's questions, and availabilities.
import { availabilityTypeOf, requiredContactFieldsOf } from '../../catalog/service.js';
import type { ActivityRow } from '../../catalog/index.js';
import type { TicketTypeRow } from '../../catalog/index.js';
import type { QuestionRow } from '../../questions/index.js';
import { rowOptions } from '../../questions/view.js';
import { toTimeslot } from '../../availability/service.js';
import type { LiveTimeslotRow } from '../../availability/index.js';
import { nextDate, startOfDayUnix, unixToZonedIso } from '../../calendar/zoned-time.js';
import type { Wants } from '../http.js';
import type { ActivityPhoto } from '../../catalog/photos/schemas.js';
import { octoContent } from './content.js';
import { DELIVERY_FORMAT, DELIVERY_METHOD, OPTION_ID, REDEMPTION_METHOD, UNIT_TYPE } from '../terms.js';
import { lowestPriceOf, pricing, unitPricingOf } from './pricing.js';
import type { Availability, OctoQuestion, Option, Product, Unit } from './schemas.js';
import type { UnixSeconds } from '../../lib/clock.js';

/** An attraction with a daily capacity: one availability a day, its opening hours. */
export const isOpeningHours = (activity: ActivityRow): boolean => availabilityTypeOf(activity) === 'opening_hours';

// ---- products ------------------------------------------------------------------------------------------

/** A ticket type as an OCTo unit: its limits per booking, people, and the type it must come with. */
function unitOf(type: TicketTypeRow, activity: ActivityRow, wants: Wants): Unit {
  return {
    id: type.code,
    internalName: type.name,
    reference: String(type.id),
    type: UNIT_TYPE[type.category as keyof typeof UNIT_TYPE] ?? 'OTHER',
    restrictions: {
      minAge: type.min_age ?? 0,
      maxAge: type.max_age ?? 99,
      idRequired: false,
      minQuantity: type.min_per_booking > 0 ? type.min_per_booking : null,
      maxQuantity: type.max_per_booking,
      paxCount: type.people,
      accompaniedBy: type.requires_code === null ? [] : [type.requires_code],
    },
    requiredContactFields: [],
    ...(wants.pricing && { pricingFrom: [pricing(type.price, activity.currency)] }),
    ...(wants.questions && { questions: [] }),
  };
}

export interface ProductParts {
  activity: ActivityRow;
  types: TicketTypeRow[];
  questions: QuestionRow[];
  startTimes: string[];
  /** Loaded only for octo/content. */
  photos: ActivityPhoto[];
}

function optionOf({ activity, types, questions, startTimes }: ProductParts, wants: Wants): Option {
  return {
    id: OPTION_ID,
    default: true,
    internalName: OPTION_ID,
    reference: null,
    // OCTo wants at least one: "00:00" for opening hours and for an activity without upcoming timeslots.
    availabilityLocalStartTimes: !isOpeningHours(activity) && startTimes.length > 0 ? startTimes : ['00:00'],
    // slotbook lets a booking be cancelled until it starts, like the partner API.
    cancellationCutoff: '0 hours',
    cancellationCutoffAmount: 0,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: requiredContactFieldsOf(activity),
    restrictions: { minUnits: 1, maxUnits: activity.max_participants_per_booking },
    units: types.map((type) => unitOf(type, activity, wants)),
    ...(wants.pricing && { pricingFrom: [lowestPriceOf(activity, types)] }),
    ...(wants.questions && { questions: questions.map(toOctoQuestion) }),
  };
}

export function toOctoProduct(parts: ProductParts, wants: Wants): Product {
  const { activity } = parts;
  return {
    id: activity.public_id,
    internalName: activity.name,
    reference: String(activity.id),
    locale: 'en',
    timeZone: activity.timezone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: isOpeningHours(activity) ? 'OPENING_HOURS' : 'START_TIME',
    deliveryFormats: [DELIVERY_FORMAT],
    deliveryMethods: [DELIVERY_METHOD],
    redemptionMethod: REDEMPTION_METHOD,
    options: [optionOf(parts, wants)],
    ...(wants.pricing && { defaultCurrency: activity.currency, availableCurrencies: [activity.currency], pricingPer: 'UNIT' }),
    ...(wants.content && octoContent(activity, parts.photos)),
  };
}

// ---- questions (octo/questions) -----------------------------------------------------------------------

const YES_NO = [
  { label: 'Yes', value: 'true' },
  { label: 'No', value: 'false' },
];
// A consent offers its one acceptable answer, so a reseller's form cannot collect a refusal.
const I_AGREE = [{ label: 'I agree', value: 'true' }];

export function toOctoQuestion(row: QuestionRow): OctoQuestion {
  const options =
    row.type === 'select'
      ? rowOptions(row).map((option) => ({ label: option, value: option }))
      : row.type === 'boolean'
        ? YES_NO
        : row.type === 'consent'
          ? I_AGREE
          : [];
  const inputType =
    row.type === 'file' || row.requires_file_upload === 1 ? 'file' : row.type === 'date' ? 'date' : options.length > 0 ? 'select' : 'text';
  return {
    id: String(row.id),
    required: row.required === 1,
    label: row.question,
    description: inputType === 'file' ? 'Answer with the FileID of a file uploaded with POST /api/v2/ota/{partner}/uploads' : null,
    inputType,
    selectOptions: options,
  };
}

// ---- availability --------------------------------------------------------------------------------------

export type Status = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED';

/** CLOSED once it takes no bookings or without capacity; LIMITED under half the seats left, as OCTo defines it. */
export function statusOf(capacity: number, left: number, closed: boolean): Status {
  if (closed || capacity === 0) return 'CLOSED';
  if (left === 0) return 'SOLD_OUT';
  return left * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
}

const utcSeconds = (seconds: UnixSeconds): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** What a request's units ask for: seats of the capacity and people of the booking's maximum. */
export interface Wanted {
  seats: number;
  people: number;
}

export function toAvailability(
  row: LiveTimeslotRow,
  activity: ActivityRow,
  types: TicketTypeRow[],
  now: UnixSeconds,
  wants: Pick<Wants, 'pricing'>,
  wanted: Wanted = { seats: 1, people: 1 },
): Availability {
  const slot = toTimeslot(row, activity.timezone, now);
  const allDay = isOpeningHours(activity);
  const dayStart = allDay ? unixToZonedIso(startOfDayUnix(row.date, activity.timezone), activity.timezone) : slot.StartsAt;
  return {
    id: dayStart,
    localDateTimeStart: dayStart,
    localDateTimeEnd: allDay
      ? unixToZonedIso(startOfDayUnix(nextDate(row.date), activity.timezone), activity.timezone)
      : unixToZonedIso(row.ends_at, activity.timezone),
    utcCutoffAt: utcSeconds(row.bookable_until),
    allDay,
    available: slot.Available > 0 && slot.Available >= wanted.seats && wanted.people <= activity.max_participants_per_booking,
    status: statusOf(slot.Capacity, slot.Available, row.bookable_until <= now),
    vacancies: slot.Available,
    capacity: slot.Capacity,
    maxUnits: activity.max_participants_per_booking,
    openingHours: allDay ? [{ from: row.time, to: slot.EndTime }] : [],
    ...(wants.pricing && { unitPricing: unitPricingOf(activity, types) }),
  };
}

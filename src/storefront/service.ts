// What the booking pages read beyond the shop API of src/shop: the first page's data in one answer, and
// an activity's month calendar with sold-out days (the dates endpoint lists days with room only).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { listProducts, requireActivity } from '../catalog/service.js';
import type { Product } from '../catalog/schemas.js';
import { listActivities } from '../catalog/index.js';
import { refundRulesOf } from '../catalog/refund-rules.js';
import { listDatesWithRoom, listTimeslots } from '../availability/index.js';
import { toTimeslot } from '../availability/service.js';
import { unixNow } from '../lib/clock.js';
import { requireShopProfile } from '../settings/profile.js';
import { toStorefrontProfile } from './view.js';
import type { CalendarDay, Storefront } from './schemas.js';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "From" the lowest price a guest pays: a free ticket (an infant's) is no price, unless every ticket is free. */
export function priceFrom(product: Pick<Product, 'TicketTypes' | 'UnitPrice'>): number {
  const prices = product.TicketTypes.map((type) => type.Price);
  const paid = prices.filter((price) => price > 0);
  if (paid.length > 0) return Math.min(...paid);
  return prices.length > 0 ? 0 : product.UnitPrice;
}

export async function storefront(
  db: Kysely<Database>,
  operatorId: number,
  locale: string | undefined,
  testMode: boolean,
  now = unixNow(),
): Promise<Storefront> {
  const [profile, products, rows] = await Promise.all([
    requireShopProfile(db, operatorId, '').then(toStorefrontProfile),
    // Addresses on this site, like the logo's: the pages are always served by slotbook itself.
    listProducts(db, operatorId, '', undefined, locale),
    listActivities(db, operatorId),
  ]);
  const byPublicId = new Map(rows.map((row) => [row.public_id, row]));
  // From yesterday in UTC: every time zone's today is covered, and started timeslots are left out anyway.
  const range = { from: isoDay(now * 1000 - DAY_MS), to: isoDay(now * 1000 + 365 * DAY_MS) };
  const activities = await Promise.all(
    products.map(async (product) => {
      const row = byPublicId.get(product.ActivityID)!;
      const [first] = await listDatesWithRoom(db, row.id, range, now);
      return {
        ...product,
        PriceFrom: priceFrom(product),
        NextAvailableDate: first?.date ?? null,
        GuestCancellation: row.guest_cancel_hours === null ? null : { HoursBefore: row.guest_cancel_hours, Refunds: refundRulesOf(row) },
        GuestReschedule: row.guest_reschedule_hours === null ? null : { HoursBefore: row.guest_reschedule_hours },
      };
    }),
  );
  return { Profile: profile, TestMode: testMode, Activities: activities };
}

/** Every day of the month that has timeslots not yet started: with room, or sold out. */
export async function activityCalendar(
  db: Kysely<Database>,
  operatorId: number,
  activityId: string,
  month: string,
  now = unixNow(),
): Promise<CalendarDay[]> {
  const activity = await requireActivity(db, operatorId, activityId);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const rows = await listTimeslots(db, activity.id, { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` }, now);
  const days = new Map<string, CalendarDay>();
  for (const row of rows) {
    if (Number(row.bookable_until) <= now) continue;
    const slot = toTimeslot(row, activity.timezone, now);
    const day = days.get(row.date) ?? { Date: row.date, Timeslots: 0, Available: 0, SoldOut: false };
    day.Timeslots += 1;
    day.Available += slot.Available;
    days.set(row.date, day);
  }
  return [...days.values()].map((day) => ({ ...day, SoldOut: day.Available === 0 })).sort((a, b) => (a.Date < b.Date ? -1 : 1));
}

// The online shop's baskets: a customer opens one, adds timeslot items (each a booking of Source online,
// on hold for the configured minutes), reads the total, and checks out once (checkout.ts).
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { unixNow } from '../availability/seats.js';
import { unixToZonedIso } from '../calendar/zoned-time.js';
import { placeBooking } from '../bookings/placement.js';
import { prepareBooking } from '../bookings/service.js';
import { effectiveStatus } from '../bookings/view.js';
import { findBasket, insertBasket, insertBasketItem, listBasketItems, setBasketCurrency, type BasketItemRecord, type BasketRow } from './store.js';
import type { AddItemBody, Basket, BasketItem, CreateBasketBody } from './schemas.js';
import { toBookedTicket } from '../tickets/mapper.js';
import { bookingTicketsOf, type BookingTicketRow } from '../tickets/store.js';

/** A shop exists for every operator; an unknown OperatorID is 404 like any unknown resource. */
export async function requireShop(db: Kysely<Database>, operatorId: number): Promise<void> {
  const operator = await db.selectFrom('operators').select('id').where('id', '=', operatorId).executeTakeFirst();
  if (!operator) throw new NotFound(`No shop ${operatorId}`);
}

export async function requireBasket(db: Kysely<Database>, operatorId: number, token: string): Promise<BasketRow> {
  const basket = await findBasket(db, operatorId, token);
  if (!basket) throw new NotFound('No such basket');
  return basket;
}

function toItem(row: BasketItemRecord, tickets: BookingTicketRow[], now: number): BasketItem {
  const participants = Number(row.participants);
  const lines = tickets.map((ticket) => ({ ...toBookedTicket(ticket), Amount: ticket.quantity * ticket.unit_price }));
  const single = lines.length === 1 && lines[0]!.Quantity === participants ? lines[0]!.UnitPrice : null;
  const holdExpiresAt = row.hold_expires_at === null ? null : Number(row.hold_expires_at);
  return {
    BookingReference: row.reference,
    ActivityID: row.activity_public_id,
    ActivityName: row.activity_name,
    Date: row.date,
    Time: row.time,
    StartsAt: unixToZonedIso(Number(row.starts_at), row.timezone),
    Participants: participants,
    Tickets: lines,
    UnitPrice: single,
    Amount: lines.reduce((sum, line) => sum + line.Amount, 0),
    Status: effectiveStatus({ status: row.status, hold_expires_at: holdExpiresAt }, now),
    HoldExpiresAt: holdExpiresAt === null ? null : new Date(holdExpiresAt * 1000).toISOString(),
  };
}

/** What the basket costs: the items that still hold seats (open) or are confirmed (paid). */
export function payableTotal(items: BasketItem[]): number {
  return items.filter((item) => item.Status === 'on_hold' || item.Status === 'confirmed').reduce((sum, item) => sum + item.Amount, 0);
}

export async function basketView(db: Kysely<Database>, basket: BasketRow, now = unixNow()): Promise<Basket> {
  const rows = await listBasketItems(db, basket.id);
  const tickets = await bookingTicketsOf(db, rows.map((row) => row.booking_id));
  const items = rows.map((row) => toItem(row, tickets.get(row.booking_id) ?? [], now));
  return {
    BasketToken: basket.token,
    Status: basket.status,
    Currency: basket.currency,
    Total: payableTotal(items),
    Customer: { FirstName: basket.customer_first_name, LastName: basket.customer_last_name, Email: basket.customer_email, Phone: basket.customer_phone },
    Items: items,
    PaymentReference: basket.payment_reference,
    CreatedAt: new Date(Number(basket.created_at)).toISOString(),
    PaidAt: basket.paid_at === null ? null : new Date(Number(basket.paid_at)).toISOString(),
  };
}

export async function createBasket(db: Db, operatorId: number, body: CreateBasketBody): Promise<Basket> {
  await requireShop(db.kysely, operatorId);
  const c = body.Customer;
  const basket = await db.write((tx) =>
    insertBasket(tx, { operatorId, customer: { firstName: c.FirstName.trim(), lastName: c.LastName.trim(), email: c.Email.trim(), phone: c.Phone } }),
  );
  return basketView(db.kysely, basket);
}

export async function getBasket(db: Kysely<Database>, operatorId: number, token: string): Promise<Basket> {
  return basketView(db, await requireBasket(db, operatorId, token));
}

/**
 * Holds the item's seats for `holdMinutes` as a booking of Source online, and puts it in the basket. The
 * booking rules are the partner API's (404, 422, 409 sold out), in the same order; a paid basket takes no
 * more items (409), and every item is in the basket's one currency (422).
 */
export async function addBasketItem(db: Db, operatorId: number, token: string, body: AddItemBody, holdMinutes: number): Promise<Basket> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  const now = unixNow();
  await db.write(async (tx) => {
    const current = await requireBasket(tx, operatorId, token);
    if (current.status !== 'open') throw new Conflict('This basket is paid; open a new basket for another purchase');
    await holdItem(tx, current, body, holdMinutes, now);
  });
  return getBasket(db.kysely, operatorId, basket.token);
}

/** The seats of one item, held in the basket; also how a waitlist offer fills the basket it opens. */
export async function holdItem(tx: Tx, basket: BasketRow, item: AddItemBody, holdMinutes: number, now: number): Promise<void> {
  const customer = { FirstName: basket.customer_first_name, LastName: basket.customer_last_name, Email: basket.customer_email, Phone: basket.customer_phone };
  const origin = { operatorId: basket.operator_id, source: 'online' as const, partner: null };
  const { draft, activity } = await prepareBooking(tx, origin, { ...item, Customer: customer }, holdMinutes, now);
  if (basket.currency !== null && basket.currency !== activity.currency) {
    throw ValidationFailed.field('ActivityID', `This basket is in ${basket.currency}; ${item.ActivityID} is sold in ${activity.currency}. Use another basket.`);
  }
  const booking = await placeBooking(tx, draft, now);
  await setBasketCurrency(tx, basket.id, activity.currency);
  await insertBasketItem(tx, { basketId: basket.id, bookingId: booking.id, activityName: activity.name, unitPrice: activity.unit_price, participants: booking.participants });
}

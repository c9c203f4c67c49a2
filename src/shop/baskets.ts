// The online shop's baskets: a customer opens one, adds timeslot items (each a booking of Source online,
// on a short hold while the guest is choosing), begins checkout (the seats are then held longer, up to
// the hold's ceiling, and the basket takes no more items), reads the total, and pays once (flows/checkout.ts).
// What one client may hold at once is bounded (limits.ts).
import { guestLanguage } from '../lib/guest-messages.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { addSeconds, earliest, latest, nowMillis, unixNow, type UnixSeconds } from '../lib/clock.js';
import { unixToZonedIso } from '../calendar/zoned-time.js';
import { draftOfRequest, holdCeiling, holdUntil, placeBooking, prepareDraft, type BookingDraft } from '../bookings/index.js';
import { effectiveStatus } from '../bookings/view.js';
import { checkBasketQuota, checkHoldLimits, lockClient, type ShopLimits } from './limits.js';
import {
  confirmationQueued,
  findBasket,
  insertBasket,
  insertBasketItem,
  listBasketItems,
  lockBasket,
  markCheckoutStarted,
  setBasketCurrency,
  type BasketItemRecord,
  type BasketRow,
} from './store.js';
import type { AddItemBody, Basket, BasketItem, CreateBasketBody } from './schemas.js';
import { toBookedTicket } from '../catalog/tickets/view.js';
import { latestBasketPayment } from '../payments/index.js';
import { basketPaymentView } from '../payments/view.js';
import { bookingTicketsOf, type BookingTicketRow } from '../catalog/index.js';
import { depositOf } from '../catalog/deposits.js';

export type HoldSettings = Pick<Config, 'basketHoldMinutes' | 'checkoutHoldMinutes' | 'holdMaxLifetimeMinutes'> & ShopLimits;

export async function requireBasket(db: Kysely<Database>, operatorId: number, token: string): Promise<BasketRow> {
  const basket = await findBasket(db, operatorId, token);
  if (!basket) throw new NotFound('No such basket');
  return basket;
}

function toItem(row: BasketItemRecord, tickets: BookingTicketRow[], now: UnixSeconds): BasketItem {
  const participants = Number(row.participants);
  const lines = tickets.map((ticket) => ({ ...toBookedTicket(ticket), Amount: ticket.quantity * ticket.unit_price }));
  const single = lines.length === 1 && lines[0]!.Quantity === participants ? lines[0]!.UnitPrice : null;
  const holdExpiresAt = row.hold_expires_at;
  return {
    BookingReference: row.reference,
    ActivityID: row.activity_public_id,
    ActivityName: row.activity_name,
    Date: row.date,
    Time: row.time,
    StartsAt: unixToZonedIso(row.starts_at, row.timezone),
    Participants: participants,
    Tickets: lines,
    UnitPrice: single,
    Amount: lines.reduce((sum, line) => sum + line.Amount, 0),
    Deposit: row.deposit === null ? null : Number(row.deposit),
    Status: effectiveStatus({ status: row.status, hold_expires_at: holdExpiresAt }, now),
    HoldExpiresAt: holdExpiresAt === null ? null : new Date(holdExpiresAt * 1000).toISOString(),
  };
}

/** What the basket costs: the items that still hold seats (open) or are confirmed (paid). */
/** The basket's items, each still holding its seats: else 409 and nothing is charged (checkout, either provider). */
export async function requireHeldItems(tx: Tx, basketId: number, now: UnixSeconds): Promise<BasketItemRecord[]> {
  const items = await listBasketItems(tx, basketId);
  if (items.length === 0) throw new Conflict('The basket is empty: add a timeslot before checking out');
  for (const item of items) {
    const live = item.status === 'on_hold' && item.hold_expires_at !== null && Number(item.hold_expires_at) > now;
    if (!live) {
      throw new Conflict(
        `The seats of ${item.reference} (${item.activity_name}, ${item.date} ${item.time}) are no longer held for you; nothing was charged. Remove it or start a new basket.`,
      );
    }
  }
  return items;
}

const counted = (items: BasketItem[]) => items.filter((item) => item.Status === 'on_hold' || item.Status === 'confirmed');

export function payableTotal(items: BasketItem[]): number {
  return counted(items).reduce((sum, item) => sum + item.Amount, 0);
}

/** What paying charges now: each counted item's deposit, or its whole amount. */
export function dueNow(items: BasketItem[]): number {
  return counted(items).reduce((sum, item) => sum + (item.Deposit ?? item.Amount), 0);
}

export async function basketView(db: Kysely<Database>, basket: BasketRow, now = unixNow()): Promise<Basket> {
  const rows = await listBasketItems(db, basket.id);
  const tickets = await bookingTicketsOf(
    db,
    rows.map((row) => row.booking_id),
  );
  const items = rows.map((row) => toItem(row, tickets.get(row.booking_id) ?? [], now));
  const payment = await latestBasketPayment(db, basket.id, 'stripe');
  const shown = payment ? basketPaymentView(payment, now) : undefined;
  return {
    BasketToken: basket.token,
    Status: basket.status === 'open' && shown?.RedirectURL ? 'awaiting_payment' : basket.status,
    Currency: basket.currency,
    Total: payableTotal(items),
    DueNow: dueNow(items),
    Customer: {
      FirstName: basket.customer_first_name,
      LastName: basket.customer_last_name,
      Email: basket.customer_email,
      Phone: basket.customer_phone,
    },
    Items: items,
    PaymentReference: basket.payment_reference,
    CheckoutStartedAt: basket.checkout_started_at === null ? null : new Date(Number(basket.checkout_started_at) * 1000).toISOString(),
    CreatedAt: new Date(Number(basket.created_at)).toISOString(),
    PaidAt: basket.paid_at === null ? null : new Date(Number(basket.paid_at)).toISOString(),
    ConfirmationEmailed:
      basket.status === 'paid' &&
      (await confirmationQueued(
        db,
        rows.map((row) => row.booking_id),
      )),
    ...(shown && { Payment: shown }),
  };
}

/**
 * Opens a basket for the client `clientHmac` (its address's fingerprint), within its baskets per hour.
 * Only in an open shop: the shop's routes check that once for all (their hook in routes.ts).
 */
export async function createBasket(db: Db, limits: ShopLimits, operatorId: number, body: CreateBasketBody, clientHmac: string): Promise<Basket> {
  const c = body.Customer;
  const basket = await db.write(async (tx) => {
    await lockClient(tx, operatorId, clientHmac);
    await checkBasketQuota(tx, limits, operatorId, clientHmac, nowMillis());
    return insertBasket(tx, {
      operatorId,
      clientHmac,
      customer: { firstName: c.FirstName.trim(), lastName: c.LastName.trim(), email: c.Email.trim(), phone: c.Phone },
      locale: guestLanguage(body.Locale),
    });
  });
  return basketView(db.kysely, basket);
}

export async function getBasket(db: Kysely<Database>, operatorId: number, token: string): Promise<Basket> {
  return basketView(db, await requireBasket(db, operatorId, token));
}

/**
 * Holds the item's seats for the choosing minutes as a booking of Source online, and puts it in the
 * basket. The booking rules are the partner API's (404, 422, 409 sold out), in the same order; a paid
 * basket or one whose checkout began takes no more items (409), every item is in the basket's one currency
 * (422), and neither the basket (422 on Participants) nor its client (429) may hold more than its limit.
 * Only in an open shop, like createBasket.
 */
export async function addBasketItem(
  db: Db,
  settings: HoldSettings,
  operatorId: number,
  token: string,
  body: AddItemBody,
  clientHmac: string,
): Promise<Basket> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  const now = unixNow();
  await db.write(async (tx) => {
    await lockClient(tx, operatorId, clientHmac);
    await lockBasket(tx, basket.id);
    const current = await requireBasket(tx, operatorId, token);
    if (current.status !== 'open') throw new Conflict('This basket is paid; open a new basket for another purchase');
    if (current.checkout_started_at !== null)
      throw new Conflict('Checkout has begun for this basket, so it takes no more items: pay it, or open a new basket');
    const field = body.Tickets === undefined ? 'Participants' : 'Tickets';
    await holdItem(tx, current, body, settings.basketHoldMinutes, now, clientHmac, (seats) =>
      checkHoldLimits(tx, settings, { operatorId, basketId: current.id, clientHmac, seats, field }, now),
    );
  });
  return getBasket(db.kysely, operatorId, basket.token);
}

/**
 * The guest is done choosing: every item still on hold is held for the checkout minutes from now (never
 * shortened, never beyond the hold's ceiling), once per basket, and the basket takes no more items. A
 * second call answers the basket unchanged: checkout time is granted once.
 */
export async function beginCheckout(db: Db, settings: HoldSettings, operatorId: number, token: string): Promise<Basket> {
  const basket = await requireBasket(db.kysely, operatorId, token);
  const now = unixNow();
  await db.write(async (tx) => {
    await lockBasket(tx, basket.id);
    const current = await requireBasket(tx, operatorId, token);
    if (current.status !== 'open') throw new Conflict('This basket is paid already');
    if (current.checkout_started_at !== null) return;
    const live = (await listBasketItems(tx, current.id)).filter(
      (item) => item.status === 'on_hold' && item.hold_expires_at !== null && Number(item.hold_expires_at) > now,
    );
    if (live.length === 0) throw new Conflict('This basket holds no seats: add a timeslot before checking out');
    for (const item of live) {
      const held = item.hold_expires_at ?? now;
      const until = earliest(
        latest(held, addSeconds(now, settings.checkoutHoldMinutes * 60)),
        latest(held, holdCeiling(item.booking_created_at, settings.holdMaxLifetimeMinutes)),
      );
      await holdUntil(tx, item.booking_id, until, now);
    }
    await markCheckoutStarted(tx, current.id, now);
  });
  return getBasket(db.kysely, operatorId, basket.token);
}

/** A basket's item (the partner body's booking fields) as the bookings' draft: the basket's guest and language, its seats held while it is paid. */
function draftOfItem(basket: BasketRow, item: AddItemBody, holdMinutes: number): BookingDraft {
  const customer = {
    FirstName: basket.customer_first_name,
    LastName: basket.customer_last_name,
    Email: basket.customer_email,
    Phone: basket.customer_phone,
  };
  return draftOfRequest({ ...item, Customer: customer, Locale: basket.locale }, holdMinutes);
}

/**
 * The seats of one item, held in the basket; also how a waitlist offer fills the basket it opens (then
 * `clientHmac` is null: the platform holds them for a confirmed guest, not a client of the shop).
 * `checkLimits` sees the item's seats (its tickets decide them) before any are taken.
 */
export async function holdItem(
  tx: Tx,
  basket: BasketRow,
  item: AddItemBody,
  holdMinutes: number,
  now: UnixSeconds,
  clientHmac: string | null,
  checkLimits?: (seats: number) => Promise<void>,
): Promise<void> {
  const origin = { operatorId: basket.operator_id, source: 'online' as const, partner: null, basketId: basket.id };
  const { placement, activity } = await prepareDraft(tx, origin, draftOfItem(basket, item, holdMinutes), now);
  if (basket.currency !== null && basket.currency !== activity.currency) {
    throw ValidationFailed.field(
      'ActivityID',
      `This basket is in ${basket.currency}; ${item.ActivityID} is sold in ${activity.currency}. Use another basket.`,
    );
  }
  await checkLimits?.(placement.mix.seats);
  const booking = await placeBooking(tx, placement, now);
  await setBasketCurrency(tx, basket.id, activity.currency);
  const deposit = depositOf(activity, placement.mix.total, activity.currency);
  await insertBasketItem(tx, {
    basketId: basket.id,
    bookingId: booking.id,
    activityName: activity.name,
    unitPrice: activity.unit_price,
    participants: booking.participants,
    clientHmac,
    deposit,
    charged: deposit ?? placement.mix.total,
  });
}

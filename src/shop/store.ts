// SQL of baskets and their items (bookings on hold until paid). Payments are the payments domain's.
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { dialectOf, type Tx } from '../db/connection.js';
import type { BasketTable, Database } from '../db/schema.js';
import { nowMillis, type UnixMillis, type UnixSeconds } from '../lib/clock.js';

export type BasketRow = Selectable<BasketTable>;

export const newBasketToken = (): string => randomBytes(16).toString('base64url');

export interface NewBasket {
  operatorId: number;
  customer: { firstName: string; lastName: string; email: string; phone: string };
  /** The guest's language ('en' or 'de'), which the basket's bookings keep. */
  locale?: string;
  waitlistEntryId?: number;
  /** HMAC of the opening client's address; absent for baskets the platform opens (waitlist offers). */
  clientHmac?: string;
}

export async function insertBasket(tx: Tx, basket: NewBasket): Promise<BasketRow> {
  return tx
    .insertInto('baskets')
    .values({
      operator_id: basket.operatorId,
      token: newBasketToken(),
      status: 'open',
      currency: null,
      customer_first_name: basket.customer.firstName,
      customer_last_name: basket.customer.lastName,
      customer_email: basket.customer.email,
      customer_phone: basket.customer.phone,
      waitlist_entry_id: basket.waitlistEntryId ?? null,
      payment_reference: null,
      created_at: nowMillis(),
      paid_at: null,
      client_hmac: basket.clientHmac ?? null,
      checkout_started_at: null,
      locale: basket.locale ?? 'en',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findBasket(db: Kysely<Database>, operatorId: number, token: string): Promise<BasketRow | undefined> {
  return db.selectFrom('baskets').selectAll().where('token', '=', token).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function findBasketById(db: Kysely<Database>, operatorId: number, basketId: number): Promise<BasketRow | undefined> {
  return db.selectFrom('baskets').selectAll().where('id', '=', basketId).where('operator_id', '=', operatorId).executeTakeFirst();
}

/**
 * A basket item: its booking. `unit_price` and `participants` record the activity's UnitPrice and the
 * people as they were; what an item costs is its booking's tickets (booking_tickets, basketAmount).
 */
export async function insertBasketItem(
  tx: Tx,
  item: {
    basketId: number;
    bookingId: number;
    activityName: string;
    unitPrice: number;
    participants: number;
    clientHmac: string | null;
    /** What the shop charges for it now (its deposit), null: its whole price. */
    deposit: number | null;
    /** What the item costs the guest now: its deposit, else its tickets' price (the booking's share for good). */
    charged: number;
  },
): Promise<void> {
  await tx
    .insertInto('basket_items')
    .values({
      basket_id: item.basketId,
      booking_id: item.bookingId,
      activity_name: item.activityName,
      unit_price: item.unitPrice,
      participants: item.participants,
      client_hmac: item.clientHmac,
      deposit: item.deposit,
      charged: item.charged,
    })
    .execute();
}

/**
 * Locks the basket's row until the transaction ends (PostgreSQL; SQLite's write transaction holds the
 * database already), so that items, checkout and payment of one basket run one after the other.
 */
export async function lockBasket(tx: Tx, basketId: number): Promise<void> {
  if (dialectOf(tx) === 'postgres') await tx.selectFrom('baskets').select('id').where('id', '=', basketId).forUpdate().execute();
}

/** The guest began checkout: its seats are held longer, and the basket takes no more items. */
export async function markCheckoutStarted(tx: Tx, basketId: number, now: UnixSeconds): Promise<void> {
  await tx.updateTable('baskets').set({ checkout_started_at: now }).where('id', '=', basketId).where('checkout_started_at', 'is', null).execute();
}

/** The first item fixes the basket's currency; later items must match it (the caller checks). */
export async function setBasketCurrency(tx: Tx, basketId: number, currency: string): Promise<void> {
  await tx.updateTable('baskets').set({ currency }).where('id', '=', basketId).where('currency', 'is', null).execute();
}

// ---- what one client holds, opens and has declined (limits.ts, payments/declines.ts), and the shop's settings ----

/**
 * Seats on live hold in one basket, or added by one client in one operator's shop, and when the first of
 * them lapses. One query that joins the items' bookings (their seats and hold), as the check runs in
 * every add-to-basket transaction.
 */
export async function liveHeldSeats(
  tx: Tx,
  now: UnixSeconds,
  by: { basketId: number } | { operatorId: number; clientHmac: string },
): Promise<{ seats: number; firstLapse: number | null }> {
  let query = tx
    .selectFrom('basket_items')
    .innerJoin('bookings', 'bookings.id', 'basket_items.booking_id')
    .select((eb) => [eb.fn.sum<number>('bookings.seats').as('seats'), eb.fn.min<number>('bookings.hold_expires_at').as('first_lapse')])
    .where('bookings.status', '=', 'on_hold')
    .where('bookings.hold_expires_at', '>', now);
  query =
    'basketId' in by
      ? query.where('basket_items.basket_id', '=', by.basketId)
      : query.where('basket_items.client_hmac', '=', by.clientHmac).where('bookings.operator_id', '=', by.operatorId);
  const row = await query.executeTakeFirst();
  return { seats: Number(row?.seats ?? 0), firstLapse: row?.first_lapse == null ? null : Number(row.first_lapse) };
}

/** The baskets one client opened in one operator's shop since `since`, and when the oldest of them was. */
export async function basketsOpenedSince(
  tx: Tx,
  operatorId: number,
  clientHmac: string,
  since: UnixMillis,
): Promise<{ opened: number; oldest: number | null }> {
  const row = await tx
    .selectFrom('baskets')
    .select((eb) => [eb.fn.countAll<number>().as('opened'), eb.fn.min<number>('created_at').as('oldest')])
    .where('operator_id', '=', operatorId)
    .where('client_hmac', '=', clientHmac)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return { opened: Number(row?.opened ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}

/** The shop's settings row (none until the operator first opens or closes the shop). */
export async function readShopSettings(db: Kysely<Database>, operatorId: number) {
  return db.selectFrom('shop_settings').select(['is_open', 'test_mode', 'updated_at']).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function saveShopSettings(
  tx: Tx | Kysely<Database>,
  operatorId: number,
  values: { is_open: number; test_mode?: number; updated_at: UnixMillis },
): Promise<void> {
  await tx
    .insertInto('shop_settings')
    .values({ operator_id: operatorId, ...values })
    .onConflict((oc) => oc.column('operator_id').doUpdateSet(values))
    .execute();
}

/** The items with their bookings as they are now, in the order they were added. */
export async function listBasketItems(db: Kysely<Database>, basketId: number) {
  return db
    .selectFrom('basket_items')
    .innerJoin('bookings', 'bookings.id', 'basket_items.booking_id')
    .innerJoin('timeslots', 'timeslots.id', 'bookings.timeslot_id')
    .innerJoin('activities', 'activities.id', 'timeslots.activity_id')
    .select([
      'basket_items.booking_id',
      'basket_items.activity_name',
      'basket_items.unit_price',
      'basket_items.participants',
      'basket_items.deposit',
      'bookings.reference',
      'bookings.status',
      'bookings.hold_expires_at',
      'bookings.created_at as booking_created_at',
      'timeslots.date',
      'timeslots.time',
      'timeslots.starts_at',
      'activities.public_id as activity_public_id',
      'activities.timezone',
    ])
    .where('basket_items.basket_id', '=', basketId)
    .orderBy('bookings.id')
    .execute();
}
export type BasketItemRecord = Awaited<ReturnType<typeof listBasketItems>>[number];

/** What the basket charges now: each item's deposit, or its tickets at the prices they were booked at. */
export async function basketAmount(db: Kysely<Database>, basketId: number): Promise<number> {
  const shares = await itemCharges(db, basketId);
  return [...shares.values()].reduce((sum, charge) => sum + charge, 0);
}

/** What the basket charges now for each of its bookings (its deposit, or its whole price), by booking id. */
export async function itemCharges(db: Kysely<Database>, basketId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('basket_items')
    .leftJoin('booking_tickets', 'booking_tickets.booking_id', 'basket_items.booking_id')
    .select((eb) => [
      'basket_items.booking_id',
      'basket_items.deposit',
      eb.fn.coalesce(eb.fn.sum<number>(eb('booking_tickets.quantity', '*', eb.ref('booking_tickets.unit_price'))), eb.lit(0)).as('total'),
    ])
    .where('basket_items.basket_id', '=', basketId)
    .groupBy(['basket_items.booking_id', 'basket_items.deposit'])
    .execute();
  return new Map(rows.map((row) => [Number(row.booking_id), row.deposit === null ? Number(row.total) : Number(row.deposit)]));
}

/** What the basket's payment paid each booking: what the basket charges for it (basketAmount's parts). */
export async function basketAllocations(db: Kysely<Database>, basketId: number): Promise<{ bookingId: number; amount: number }[]> {
  return [...(await itemCharges(db, basketId))].map(([bookingId, amount]) => ({ bookingId, amount }));
}

/** Open -> paid, only if still open: of two payments of one basket, exactly one gets the row. */
export async function markBasketPaid(tx: Tx, basketId: number): Promise<boolean> {
  const result = await tx
    .updateTable('baskets')
    .set({ status: 'paid', paid_at: nowMillis() })
    .where('id', '=', basketId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setPaymentReference(tx: Tx, basketId: number, reference: string | null): Promise<void> {
  await tx.updateTable('baskets').set({ payment_reference: reference }).where('id', '=', basketId).execute();
}

/**
 * Whether a booking-confirmed workflow e-mailed (or is about to e-mail) the guest of any of these bookings:
 * the shop's confirmation page says an e-mail was sent only then. One statement over the outbox and the
 * workflows, which answer this question together.
 */
export async function confirmationQueued(db: Kysely<Database>, bookingIds: number[]): Promise<boolean> {
  if (bookingIds.length === 0) return false;
  const row = await db
    .selectFrom('emails')
    .innerJoin('workflows', 'workflows.id', 'emails.workflow_id')
    .select('emails.id')
    .where('emails.booking_id', 'in', bookingIds)
    .where('workflows.event', '=', 'booking-confirmed')
    .where('emails.status', 'in', ['queued', 'sending', 'sent'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// Whether an operator's public shop answers. A shop is closed until its operator opens it (the admin API;
// the demo operator's is open), so that walking the numeric shop addresses finds only shops that are
// public by intent: a closed shop is a 404 exactly like one that does not exist. A shop also needs a
// payment provider to answer (payments/providers/provider.ts): in production that means a connected Stripe account
// or test mode, so a shop opened without either answers as closed, and opening one is refused.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { DomainError, NotFound } from '../http/errors.js';
import { audit } from '../audit/log.js';
import { shopPaymentProvider, type PaymentConfig, type PaymentProvider } from '../payments/providers/provider.js';
import { findStripeAccount } from '../payments/index.js';
import { readShopSettings, saveShopSettings } from './store.js';
import { nowMillis } from '../lib/clock.js';

export interface ShopState {
  /** Whether the public shop answers: opened by its operator, with a provider to charge its checkouts. */
  open: boolean;
  /** The operator's choice, stored; `open` needs a payment provider besides. */
  opened: boolean;
  /** The operator runs a test shop: the test provider charges it, in production too. */
  testMode: boolean;
  /** Who charges its checkouts; undefined: nobody, so the shop cannot sell. */
  provider: PaymentProvider | undefined;
  updatedAt: number | null;
}

export interface ShopChange {
  open?: boolean;
  testMode?: boolean;
}

export async function shopState(db: Kysely<Database>, operatorId: number, config: PaymentConfig): Promise<ShopState> {
  const row = await readShopSettings(db, operatorId);
  const opened = Number(row?.is_open ?? 0) === 1;
  const testMode = Number(row?.test_mode ?? 0) === 1;
  const provider = shopPaymentProvider(config, { testMode, ...(await stripeSetup(db, operatorId)) });
  return { open: opened && provider !== undefined, opened, testMode, provider, updatedAt: row ? Number(row.updated_at) : null };
}

async function stripeSetup(db: Kysely<Database>, operatorId: number) {
  const account = await findStripeAccount(db, operatorId);
  return account ? { stripe: { liveMode: Number(account.live_mode) === 1 } } : {};
}

/** Whether the shop's payments move no money (the test provider): its booking pages announce test mode. */
export function takesTestPayments(state: ShopState): boolean {
  return state.provider !== undefined && !state.provider.live;
}

/** An open shop of this operator, else 404: an unknown and a closed shop answer alike. */
export async function requireOpenShop(db: Kysely<Database>, operatorId: number, config: PaymentConfig): Promise<ShopState> {
  const state = await shopState(db, operatorId, config);
  if (!state.open) throw new NotFound(`No shop ${operatorId}`);
  return state;
}

/** Opening (or keeping open) a shop that nothing would charge: refused, naming the setting that would fix it. */
class NoPaymentProvider extends DomainError {
  constructor() {
    super(
      'conflict',
      'The shop cannot be open without a payment provider: in production only a shop in test mode opens (the test provider takes no money), or one whose Stripe account is connected (PUT /api/v2/admin/settings/stripe)',
      [
        {
          field: 'TestMode',
          message:
            'Connect a Stripe account, or turn test mode on (TestMode: true) to open the shop as a test shop whose pages say so, or close it (Open: false)',
        },
      ],
    );
  }
}

/** Stores the shop's settings (the demo seed and tests use it directly; it checks nothing). */
export async function setShopOpen(tx: Tx | Kysely<Database>, operatorId: number, open: boolean, testMode?: boolean): Promise<void> {
  const values = { is_open: open ? 1 : 0, ...(testMode !== undefined && { test_mode: testMode ? 1 : 0 }), updated_at: nowMillis() };
  await saveShopSettings(tx, operatorId, values);
}

/** The operator opens or closes the shop, or switches its test mode; an open shop must have a payment provider. */
export async function changeShop(db: Db, config: PaymentConfig, operatorId: number, change: ShopChange): Promise<ShopState> {
  await db.write(async (tx) => {
    const before = await shopState(tx, operatorId, config);
    const opened = change.open ?? before.opened;
    const testMode = change.testMode ?? before.testMode;
    if (opened && shopPaymentProvider(config, { testMode, ...(await stripeSetup(tx, operatorId)) }) === undefined) throw new NoPaymentProvider();
    await setShopOpen(tx, operatorId, opened, testMode);
    await audit(tx, {
      operatorId,
      action: 'shop.update',
      resource: { type: 'shop', id: operatorId },
      before: { Open: before.opened, TestMode: before.testMode },
      after: { Open: opened, TestMode: testMode },
    });
  });
  return shopState(db.kysely, operatorId, config);
}

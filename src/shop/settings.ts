// Whether an operator's public shop answers. A shop is closed until its operator opens it (the admin API;
// the demo operator's is open), so that walking the numeric shop addresses finds only shops that are
// public by intent: a closed shop is a 404 exactly like one that does not exist.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { audit } from '../audit/log.js';

export interface ShopState {
  open: boolean;
  updatedAt: number | null;
}

export async function shopState(db: Kysely<Database>, operatorId: number): Promise<ShopState> {
  const row = await db.selectFrom('shop_settings').select(['is_open', 'updated_at']).where('operator_id', '=', operatorId).executeTakeFirst();
  return { open: Number(row?.is_open ?? 0) === 1, updatedAt: row ? Number(row.updated_at) : null };
}

/** An open shop of this operator, else 404: an unknown and a closed shop answer alike. */
export async function requireOpenShop(db: Kysely<Database>, operatorId: number): Promise<void> {
  if (!(await shopState(db, operatorId)).open) throw new NotFound(`No shop ${operatorId}`);
}

export async function setShopOpen(tx: Tx | Kysely<Database>, operatorId: number, open: boolean): Promise<void> {
  const values = { is_open: open ? 1 : 0, updated_at: Date.now() };
  await tx
    .insertInto('shop_settings')
    .values({ operator_id: operatorId, ...values })
    .onConflict((oc) => oc.column('operator_id').doUpdateSet(values))
    .execute();
}

export async function openOrCloseShop(db: Db, operatorId: number, open: boolean): Promise<ShopState> {
  await db.write(async (tx) => {
    const before = await shopState(tx, operatorId);
    await setShopOpen(tx, operatorId, open);
    await audit(tx, { operatorId, action: 'shop.update', resource: { type: 'shop', id: operatorId }, before: { Open: before.open }, after: { Open: open } });
  });
  return shopState(db.kysely, operatorId);
}

// The guest's acceptance of the shop's terms at checkout (src/settings/terms.ts says what is asked): checked
// before any payment is tried, on every provider, and kept with each booking of the basket while it is open
// (a paid basket's acceptance is never rewritten by a late second checkout).
import type { Db } from '../db/connection.js';
import { recordAcceptance, requireAcceptance, termsToAccept } from '../settings/terms.js';
import { requireBasket } from './baskets.js';
import { listBasketItems } from './store.js';
import { nowMillis } from '../lib/clock.js';

export async function acceptShopTerms(db: Db, operatorId: number, token: string, accepted: boolean | undefined): Promise<void> {
  const terms = await termsToAccept(db.kysely, operatorId);
  requireAcceptance(terms, accepted);
  if (terms === undefined) return;
  await db.write(async (tx) => {
    const basket = await requireBasket(tx, operatorId, token);
    if (basket.status !== 'open') return;
    const items = await listBasketItems(tx, basket.id);
    await recordAcceptance(
      tx,
      operatorId,
      items.map((item) => Number(item.booking_id)),
      terms,
      nowMillis(),
    );
  });
}

// What the waitlists do when others act: an offer's e-mail, once sent, marks its guest as told; paying
// the basket that holds an offer's seats claims the offer.
import type { EmailKindHooks } from '../emails/kinds.js';
import type { Tx } from '../db/connection.js';
import type { PaidBasket } from '../hooks/platform-hooks.js';
import { markNotified, markOfferClaimed } from './store.js';

export const claimOffer = (tx: Tx, basket: PaidBasket): Promise<void> => markOfferClaimed(tx, basket.id);

export const waitlistOfferEmail: EmailKindHooks = {
  async afterSent(tx, email) {
    if (email.waitlist_entry_id !== null) await markNotified(tx, email.waitlist_entry_id);
  },
};

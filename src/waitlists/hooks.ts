// What the waitlists do when others act: an offer's e-mail, once sent, marks its guest as told.
import type { EmailKindHooks } from '../emails/kinds.js';
import { markNotified } from './store.js';

export const waitlistOfferEmail: EmailKindHooks = {
  async afterSent(tx, email) {
    if (email.waitlist_entry_id !== null) await markNotified(tx, email.waitlist_entry_id);
  },
};

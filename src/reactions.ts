// Who reacts to what: the one place where the domains' events are wired to their reactions. Domains publish
// (events/) and never import the reactions. The command line (cli.ts), the tests' helper and the scripts
// wire these once per process before they build the app, which refuses to be built unwired (hooks/registry.ts). docs/architecture.md has
// the table.
import { defineEmailKind } from './emails/kinds.js';
import { queueGygPushes } from './getyourguide/push.js';
import { queueViatorPricing, queueViatorPushes } from './viator/push.js';
import { availabilityCoalesced } from './webhooks/deliveries/dispatch.js';
import { basketPaid, bookingChanged, operatorCreated, productChanged } from './hooks/platform-hooks.js';
import { markReactionsWired } from './hooks/registry.js';
import { insertStarterWorkflows } from './workflows/starter.js';
import { followChargeRefunds, followRefund, REFUND_EVENTS } from './payments/providers/stripe/refunds.js';
import { handleStripeEvents } from './payments/providers/stripe/events.js';
import { DISPUTE_EVENTS, followDispute } from './flows/dispute.js';
import { EXPIRED_SESSION_EVENTS, expireStripeCheckout, PAID_SESSION_EVENTS } from './payments/providers/stripe/checkout-events.js';
import { settleStripeCheckout } from './flows/complete-payment.js';
import { HIDDEN_BODY, openStaffEmailBody } from './staff/users/emails.js';
import { fillManageBookingUrl } from './storefront/email-links.js';
import { composeWorkflowEmail } from './storefront/guest-email.js';
import { expireBalance, isBalanceSession, settleBalance } from './flows/pay-balance.js';
import { claimOffer, waitlistOfferEmail } from './waitlists/hooks.js';
import { workflowEmails } from './workflows/hooks.js';
import { bookingNotices } from './notices/booking-notices.js';

export function wireReactions(): void {
  markReactionsWired();
  // A new operator starts with its confirmation, cancellation and reminder workflows (the last two paused).
  operatorCreated.on('starter-workflows', insertStarterWorkflows);
  // A booking confirmed, cancelled or moved: the operator's workflows queue their e-mails.
  bookingChanged.on('workflows', workflowEmails);
  // ... and staff who asked for an e-mail per booking get one.
  bookingChanged.on('notices', bookingNotices);
  // A basket paid: a waitlist offer held in it is claimed.
  basketPaid.on('waitlists', claimOffer);
  // Stripe's Checkout events (received by payments/providers/stripe/webhook-routes.ts): a paid session completes its basket, once.
  // A session for a booking's balance (its metadata says so) records the balance paid, once (flows/pay-balance.ts).
  handleStripeEvents(PAID_SESSION_EVENTS, (tx, context) => (isBalanceSession(context) ? settleBalance : settleStripeCheckout)(tx, context));
  handleStripeEvents(EXPIRED_SESSION_EVENTS, (tx, context) => (isBalanceSession(context) ? expireBalance : expireStripeCheckout)(tx, context));
  // Stripe's word on a refund moves its status (pending -> succeeded / failed).
  handleStripeEvents(REFUND_EVENTS, followRefund);
  handleStripeEvents(['charge.refunded'], followChargeRefunds);
  // A cardholder's dispute: recorded with the payment's bookings, the owners e-mailed once; later events keep its status.
  handleStripeEvents(DISPUTE_EVENTS, followDispute);
  // Sending an e-mail: a staff e-mail's sealed body is opened (and hidden in the outbox listing), a
  // workflow e-mail's manage link filled in, a waitlist offer's guest marked as told.
  defineEmailKind('staff', { textAtSending: ({ keys }, email) => openStaffEmailBody(keys, email.body), hiddenBody: HIDDEN_BODY });
  // A workflow e-mail to a guest is composed whole at sending: the operator's layout, the booking's details in
  // the guest's language, the QR code and the calendar entry (storefront/guest-email.ts).
  defineEmailKind('workflow', { textAtSending: fillManageBookingUrl, messageAtSending: composeWorkflowEmail });
  // The balance link (flows/balance-links.ts) is the guest's booking page, filled in at sending like a workflow's.
  defineEmailKind('balance', { textAtSending: fillManageBookingUrl });
  defineEmailKind('waitlist', waitlistOfferEmail);
  // A mapped product's seats changed (any channel, a hold, a capacity edit, a new or closed timeslot), as the
  // webhooks' dispatcher coalesced it: GetYourGuide is pushed the timeslot (getyourguide/push.ts), Viator
  // told its dates (viator/push.ts), both through the marketplaces' one push queue (marketplace-push/).
  availabilityCoalesced.on('getyourguide', queueGygPushes);
  availabilityCoalesced.on('viator', queueViatorPushes);
  // A product changed (a price, a ticket type): Viator is told PRICING for its dates still to come.
  productChanged.on('viator-pricing', queueViatorPricing);
}

// The shop domain's face: baskets, their holds and limits, as the flows (checkout, completing a payment)
// and the channels use them. They import this file, never its stores.
export {
  basketAllocations,
  basketAmount,
  findBasket,
  findBasketById,
  insertBasket,
  listBasketItems,
  lockBasket,
  markBasketPaid,
  markCheckoutStarted,
  setPaymentReference,
  type BasketItemRecord,
  type BasketRow,
} from './store.js';
export { basketView, requireBasket, requireHeldItems, type HoldSettings } from './baskets.js';

// The payments domain's face: what other folders may use of it. They import this file, never its stores.
export { balanceLinkCandidates, recordBalanceRequest } from './balance-store.js';
export { findPaymentByReference, insertDispute, updateDispute, type DisputeRow, type DisputeState } from './dispute-store.js';
export {
  changePaymentStatus,
  changeRefundStatus,
  findPayment,
  findPaymentBySession,
  findRefund,
  findStripeAccount,
  insertBookingPayment,
  insertPayment,
  insertRefund,
  latestBalancePayment,
  latestBasketPayment,
  lockPayment,
  moneyCountsByStatus,
  openInvoice,
  recentDeclines,
  recordCheckoutSession,
  type PaymentRow,
  type RefundRow,
} from './store.js';

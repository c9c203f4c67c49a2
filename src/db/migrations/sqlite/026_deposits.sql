-- Deposits and balances (issue 25, item 3; docs/payments.md "Deposits and balances").
-- 1. Per activity: pay in full (both deposit columns null, the default) or a deposit per booking, either a
--    percentage of its price (1-99) or a fixed amount (minor units of the activity's currency, at most the
--    booking's price when charged); balance_due_days: how many days before the start the balance link is
--    e-mailed (null: the balance is collected at check-in only).
ALTER TABLE activities ADD COLUMN deposit_percent INTEGER CHECK (deposit_percent BETWEEN 1 AND 99);
ALTER TABLE activities ADD COLUMN deposit_amount INTEGER CHECK (deposit_amount > 0);
ALTER TABLE activities ADD COLUMN balance_due_days INTEGER CHECK (balance_due_days BETWEEN 0 AND 365);
-- 2. What the shop charges for a basket item when it is added: its deposit (minor units), or null for its
--    whole price. The booking's share of its basket's payment is this, and its balance is the rest.
ALTER TABLE basket_items ADD COLUMN deposit INTEGER;
-- 3. The balance link (the guest's manage page, which offers "Pay the balance") e-mailed for a booking: once,
--    booking_id being the key; the job inserts the row in the transaction that queues the e-mail.
CREATE TABLE balance_requests (
  booking_id INTEGER PRIMARY KEY REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  emailed_at INTEGER NOT NULL
);
-- The balance links' job looks only at items sold with a deposit.
CREATE INDEX basket_items_deposit ON basket_items(booking_id) WHERE deposit IS NOT NULL;

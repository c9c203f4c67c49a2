-- Which payment paid which booking, and how much of it: written when a payment takes money (a basket's
-- payment over its items, a booking's own payment to that booking). Every refund path refunds across a
-- booking's allocations (its deposit and its balances), and what a booking paid is their sum, so the
-- shop's baskets no longer have to be asked what a payment paid.
CREATE TABLE payment_allocations (
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  amount BIGINT NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (payment_id, booking_id)
);
CREATE INDEX payment_allocations_booking ON payment_allocations(booking_id);

-- What the payments taken so far paid: a basket's payment paid each item what the shop charged for it
-- (an item from before migration 036 its deposit, or its tickets' price); a booking's own payment that booking.
INSERT INTO payment_allocations (payment_id, booking_id, operator_id, amount)
SELECT p.id, bi.booking_id, p.operator_id,
  COALESCE(bi.charged, bi.deposit,
    (SELECT COALESCE(SUM(bt.quantity * bt.unit_price), 0) FROM booking_tickets bt WHERE bt.booking_id = bi.booking_id))
FROM payments p
JOIN basket_items bi ON bi.basket_id = p.basket_id
WHERE p.status = 'succeeded';

INSERT INTO payment_allocations (payment_id, booking_id, operator_id, amount)
SELECT p.id, p.booking_id, p.operator_id, p.amount
FROM payments p
WHERE p.basket_id IS NULL AND p.booking_id IS NOT NULL AND p.status = 'succeeded';

-- An online booking's payment reference is its basket's payment's (Stripe's pi_..., the test provider's),
-- as a partner booking's is the partner's: the operator reads and searches it on the booking.
UPDATE bookings SET payment_reference = (SELECT b.payment_reference FROM basket_items bi JOIN baskets b ON b.id = bi.basket_id WHERE bi.booking_id = bookings.id)
WHERE source = 'online' AND payment_reference IS NULL
  AND EXISTS (SELECT 1 FROM basket_items bi JOIN baskets b ON b.id = bi.basket_id WHERE bi.booking_id = bookings.id AND b.status = 'paid' AND b.payment_reference IS NOT NULL);

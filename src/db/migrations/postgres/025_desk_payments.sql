-- The desk's payments (issue 25, item 6; docs/payments.md "The desk"). A payment of one booking made at the
-- desk (cash, a card terminal, a voucher, an invoice paid) or, later, its balance paid online, is a row of
-- payments with booking_id and no basket. `method` says how it was paid: cash | card_terminal | invoice |
-- voucher, or online for a Stripe or test-provider payment; null on the rows before (basket payments:
-- online). An invoice issued and not yet paid is a `pending` row; every other desk payment is `succeeded`.
ALTER TABLE payments ADD COLUMN method TEXT;
-- What a booking paid by itself is summed per booking (its amount due, the manifests, the list's filter).
CREATE INDEX payments_booking ON payments(booking_id, status);

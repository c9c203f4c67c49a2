-- Refunds (issue 25, item 4; docs/payments.md). A payment may be refunded in parts, per booking: each row is one
-- refund of one booking's share of a payment, asked by staff, an API key, a guest's cancellation or the system.
-- It is pending until the provider says succeeded or failed (a failed one may be retried with the same
-- idempotency key, slotbook-refund-{id}). What a booking may still refund is its share less its pending and
-- succeeded refunds, checked and inserted in one transaction with the payment's row locked.
CREATE TABLE refunds (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider_reference TEXT,
  reason TEXT NOT NULL,
  failure TEXT,
  requested_by_type TEXT NOT NULL CHECK (requested_by_type IN ('user', 'key', 'guest', 'system')),
  requested_by_id INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX refunds_booking ON refunds(operator_id, booking_id);
CREATE INDEX refunds_payment ON refunds(payment_id);
CREATE UNIQUE INDEX refunds_provider_reference ON refunds(operator_id, provider_reference);

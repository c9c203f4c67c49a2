-- Disputes and the dates money moved (issue 25, items 5 and 7; docs/payments.md).
-- 1. When a payment took money and when a refund gave it back (Unix milliseconds): the payment report sums
--    by these dates, and they never change once set (updated_at does). Rows before take their last change.
ALTER TABLE payments ADD COLUMN succeeded_at INTEGER;
UPDATE payments SET succeeded_at = coalesce(updated_at, created_at) WHERE status = 'succeeded';
CREATE INDEX payments_succeeded ON payments(operator_id, succeeded_at);
ALTER TABLE refunds ADD COLUMN succeeded_at INTEGER;
UPDATE refunds SET succeeded_at = updated_at WHERE status = 'succeeded';
CREATE INDEX refunds_succeeded ON refunds(operator_id, succeeded_at);

-- 2. A cardholder's dispute of a payment (Stripe's charge.dispute.* events), one row per Stripe dispute
--    (dp_...) and operator. Its bookings are the payment's (its basket's, or the one booking it paid).
--    last_event_at (Stripe's event time, Unix seconds) keeps an older event arriving late from undoing a newer one.
CREATE TABLE disputes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  payment_id INTEGER NOT NULL REFERENCES payments(id),
  dispute_reference TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL,
  -- the payment in Stripe's dashboard (test/ for a test-mode key), as the dispute was first received
  dashboard_url TEXT NOT NULL,
  evidence_due_by INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_event_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX disputes_reference ON disputes(operator_id, dispute_reference);
CREATE INDEX disputes_payment ON disputes(payment_id);
CREATE TABLE dispute_bookings (
  dispute_id INTEGER NOT NULL REFERENCES disputes(id),
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  PRIMARY KEY (dispute_id, booking_id)
);
CREATE INDEX dispute_bookings_booking ON dispute_bookings(booking_id);

-- Stripe Checkout (issue 25, docs/payments.md). Three changes (PostgreSQL dialect):
-- 1. payments: a payment is no longer only an attempt that succeeded or was declined at once. A Stripe
--    Checkout Session is `pending` until Stripe's webhook says it was paid (`succeeded`) or it `expired`;
--    one paid after its seats were gone is `refunding`, then `refunded`. The session's id and address are
--    kept to answer a retried checkout with the same session; basket_id may be null and booking_id is new,
--    so that payments of a booking without a basket (the desk, balances) can join the same table later.
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'succeeded', 'declined', 'expired', 'refunding', 'refunded'));
ALTER TABLE payments ALTER COLUMN basket_id DROP NOT NULL;
ALTER TABLE payments ADD COLUMN booking_id INTEGER REFERENCES bookings(id);
-- Stripe: the Checkout Session (cs_...), its address and its expiry (Unix seconds)
ALTER TABLE payments ADD COLUMN checkout_session_id TEXT;
ALTER TABLE payments ADD COLUMN redirect_url TEXT;
ALTER TABLE payments ADD COLUMN session_expires_at BIGINT;
-- Stripe: the refund (re_...) of a payment that could not be honoured
ALTER TABLE payments ADD COLUMN refund_reference TEXT;
ALTER TABLE payments ADD COLUMN updated_at BIGINT;
UPDATE payments SET updated_at = created_at;
CREATE UNIQUE INDEX payments_checkout_session ON payments(operator_id, checkout_session_id);

-- 2. The operator's own Stripe account: its secret (or restricted) key and webhook signing secret, sealed
--    with the instance's keys (src/secrets/keys.ts), never shown again; what the dashboard may show beside.
CREATE TABLE stripe_accounts (
  operator_id INTEGER PRIMARY KEY REFERENCES operators(id),
  secret_key_sealed TEXT NOT NULL,
  webhook_secret_sealed TEXT NOT NULL,
  key_last4 TEXT NOT NULL,
  live_mode INTEGER NOT NULL,
  account_id TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- 3. Stripe's events received, per operator: Stripe delivers an event at least once, so a second delivery
--    of an id is acknowledged and does nothing.
CREATE TABLE stripe_events (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (operator_id, event_id)
);

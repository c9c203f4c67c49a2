-- Stripe Checkout (issue 25, docs/payments.md). Three changes:
-- 1. payments: a payment is no longer only an attempt that succeeded or was declined at once. A Stripe
--    Checkout Session is `pending` until Stripe's webhook says it was paid (`succeeded`) or it `expired`;
--    one paid after its seats were gone is `refunding`, then `refunded`. The session's id and address are
--    kept to answer a retried checkout with the same session; basket_id may be null and booking_id is new,
--    so that payments of a booking without a basket (the desk, balances) can join the same table later.
--    SQLite cannot change a CHECK: the table is rebuilt (nothing references it).
CREATE TABLE payments_022 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  basket_id INTEGER REFERENCES baskets(id),
  booking_id INTEGER REFERENCES bookings(id),
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'declined', 'expired', 'refunding', 'refunded')),
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  provider_reference TEXT,
  failure TEXT,
  created_at INTEGER NOT NULL,
  client_hmac TEXT,
  -- Stripe: the Checkout Session (cs_...), its address and its expiry (Unix seconds)
  checkout_session_id TEXT,
  redirect_url TEXT,
  session_expires_at INTEGER,
  -- Stripe: the refund (re_...) of a payment that could not be honoured
  refund_reference TEXT,
  updated_at INTEGER
);
INSERT INTO payments_022 (id, operator_id, basket_id, provider, status, amount, currency, provider_reference, failure, created_at, client_hmac, updated_at)
  SELECT id, operator_id, basket_id, provider, status, amount, currency, provider_reference, failure, created_at, client_hmac, created_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_022 RENAME TO payments;
CREATE INDEX payments_basket ON payments(basket_id);
CREATE INDEX payments_client ON payments(client_hmac, status, created_at);
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
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- 3. Stripe's events received, per operator: Stripe delivers an event at least once, so a second delivery
--    of an id is acknowledged and does nothing.
CREATE TABLE stripe_events (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (operator_id, event_id)
);

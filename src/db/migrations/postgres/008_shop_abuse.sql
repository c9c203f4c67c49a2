-- Hardening of the public shop, waitlists, idempotency and OCTo uuids (docs/security/shop-and-idempotency.md).
-- Client addresses are stored only as keyed HMACs (src/shop/client.ts), never in clear. (PostgreSQL dialect.)

-- 1. Idempotency records belong to their holder (an ota key's marketplace, else the API key; a shop basket)
-- and their route, not to the whole operator. The records written before this upgrade (at most 24 hours
-- old) keep answering their retries from a table of their own until they lapse (src/idempotency/legacy.ts),
-- except the shop's, whose fingerprints could hold a card number: they are deleted (a retried payment of a
-- paid basket then answers 409 "already paid" instead of a replay; it is never charged twice).
ALTER TABLE idempotency_keys RENAME TO idempotency_keys_before_008;
DROP INDEX idempotency_keys_created;
DELETE FROM idempotency_keys_before_008 WHERE idempotency_key LIKE 'shop:%' AND response_body LIKE '{"data":{"BasketToken":%';
CREATE TABLE idempotency_keys (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  -- 'partner:<marketplace>', 'key:<API key ID>' or 'basket:<basket ID>'
  holder TEXT NOT NULL,
  -- method and route pattern, e.g. 'POST /api/v2/ota/:partner/booking'
  route TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  -- HMAC (instance key) of the request's fingerprint; never of a card number
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  response_location TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (operator_id, holder, route, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

-- 2. A shop answers only once its operator opened it. Operators whose shop was in use keep it open.
CREATE TABLE shop_settings (
  operator_id INTEGER PRIMARY KEY REFERENCES operators(id),
  is_open INTEGER NOT NULL,
  updated_at BIGINT NOT NULL
);
INSERT INTO shop_settings (operator_id, is_open, updated_at)
  SELECT o.id, 1, (extract(epoch FROM now()) * 1000)::bigint FROM operators o
  WHERE EXISTS (SELECT 1 FROM baskets b WHERE b.operator_id = o.id) OR EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.operator_id = o.id);

-- 3. Who holds what: the client (HMAC of its address) that opened a basket and that added each item, when
-- checkout began (the seats are then held longer), and who paid (card testing is slowed per address).
ALTER TABLE baskets ADD COLUMN client_hmac TEXT;
ALTER TABLE baskets ADD COLUMN checkout_started_at BIGINT;
CREATE INDEX baskets_client ON baskets(operator_id, client_hmac, created_at);
ALTER TABLE basket_items ADD COLUMN client_hmac TEXT;
CREATE INDEX basket_items_client ON basket_items(client_hmac, booking_id);
ALTER TABLE payments ADD COLUMN client_hmac TEXT;
CREATE INDEX payments_client ON payments(client_hmac, status, created_at);

-- 4. Waitlist places count once their address is confirmed (double opt-in). Entries from before the upgrade
-- are kept as confirmed. Addresses are compared case-folded; of two places of one address that differed
-- only in case, the later is removed.
ALTER TABLE waitlist_entries ADD COLUMN confirmed_at BIGINT;
ALTER TABLE waitlist_entries ADD COLUMN confirm_by BIGINT;
ALTER TABLE waitlist_entries ADD COLUMN confirm_token_hash TEXT;
ALTER TABLE waitlist_entries ADD COLUMN client_hmac TEXT;
UPDATE waitlist_entries SET confirmed_at = created_at;
UPDATE waitlist_entries w SET status = 'removed'
  WHERE w.status IN ('waiting', 'offered') AND EXISTS (
    SELECT 1 FROM waitlist_entries e
    WHERE e.timeslot_id = w.timeslot_id AND lower(e.customer_email) = lower(w.customer_email)
      AND e.status IN ('waiting', 'offered') AND e.id < w.id);
UPDATE waitlist_entries SET customer_email = lower(customer_email);
CREATE UNIQUE INDEX waitlist_entries_token ON waitlist_entries(confirm_token_hash);
CREATE INDEX waitlist_entries_client ON waitlist_entries(operator_id, client_hmac, status);
CREATE INDEX waitlist_entries_email ON waitlist_entries(operator_id, customer_email, status);

-- 5. OCTo uuids are the reseller's own: unique per (operator, marketplace, uuid), so that one reseller can
-- neither see nor collide with another's.
ALTER TABLE octo_bookings ADD COLUMN partner TEXT;
UPDATE octo_bookings o SET partner = coalesce(b.partner, '') FROM bookings b WHERE b.id = o.booking_id;
ALTER TABLE octo_bookings ALTER COLUMN partner SET NOT NULL;
ALTER TABLE octo_bookings DROP CONSTRAINT octo_bookings_operator_id_uuid_key;
ALTER TABLE octo_bookings ADD CONSTRAINT octo_bookings_reseller_uuid UNIQUE (operator_id, partner, uuid);

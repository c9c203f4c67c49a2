-- OCTo (docs/octo.md): what an OCTo booking carries beyond a partner booking, in a side table so that the
-- core bookings table stays the same for every channel. The reseller's uuid is its idempotency key: unique
-- per operator, inserted in the same transaction as the booking it names. The reseller's own reference is
-- not here: it is the booking's payment_reference, which the dashboard already shows for partner bookings.

CREATE TABLE octo_bookings (
  booking_id INTEGER PRIMARY KEY REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  uuid TEXT NOT NULL,
  notes TEXT,
  -- JSON array of {"uuid", "unitId", "resellerReference"}: one item per participant
  unit_items TEXT NOT NULL,
  cancel_reason TEXT,
  confirmed_at BIGINT,
  updated_at BIGINT NOT NULL,
  UNIQUE (operator_id, uuid)
);

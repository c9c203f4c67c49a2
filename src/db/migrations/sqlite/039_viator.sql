-- Viator connectivity (docs/channels/viator.md): slotbook as a reservation system of Viator's. One
-- connection per operator: the key Viator sends in X-Api-Key (only a SHA-256 of a random secret, like API
-- keys; its first characters kept to name it), Viator's supplier ID, Viator's key for its own notification
-- endpoint (sealed with the instance's keys). Bookings stay in the bookings table as partner bookings of
-- marketplace 'viator' with Viator's booking reference as payment_reference; viator_bookings adds what
-- only Viator has and makes booking idempotent on Viator's reference (unique per operator).

CREATE TABLE viator_connections (
  operator_id INTEGER PRIMARY KEY REFERENCES operators(id),
  enabled INTEGER NOT NULL DEFAULT 0,
  key_hash TEXT NOT NULL UNIQUE,
  key_hint TEXT NOT NULL,
  supplier_id TEXT,
  outbound_key_sealed TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- Which activities Viator may sell, under which productOptionId (and SupplierProductCode: slotbook has
-- no product options, so one ID names both). notify: Viator's event notifications are sent for it only
-- after Viator asked its calendar, and stop when Viator answers that it does not know it.
CREATE TABLE viator_products (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  product_option_id TEXT NOT NULL,
  notify INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (operator_id, activity_id),
  UNIQUE (operator_id, product_option_id)
);

-- The operator's choice of Viator age band for a ticket type where it differs from the default that the
-- type's own category gives; 'NONE' keeps a ticket type off Viator.
CREATE TABLE viator_age_bands (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
  band TEXT NOT NULL,
  PRIMARY KEY (operator_id, ticket_type_id)
);

CREATE TABLE viator_bookings (
  booking_id INTEGER PRIMARY KEY REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  product_option_id TEXT NOT NULL,
  -- JSON of the reserve's tickets, to tell the booking's traveller mix from another.
  tickets TEXT NOT NULL,
  -- Viator's BookingReference, once booked: a repeated booking answers the first.
  viator_reference TEXT,
  note TEXT,
  booked_at BIGINT,
  UNIQUE (operator_id, viator_reference)
);

-- The last requests Viator made (bounded per operator by the code): what and how it was answered, never who.
CREATE TABLE viator_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  endpoint TEXT NOT NULL,
  product_option_id TEXT,
  outcome TEXT,
  duration_ms INTEGER NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX viator_requests_operator ON viator_requests (operator_id, id);

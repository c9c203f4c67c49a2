-- GetYourGuide connectivity (issue 27, docs/channels/getyourguide.md). One connection per operator: the
-- inbound HTTP Basic credentials GYG calls slotbook with (the password only as a SHA-256 of a random
-- secret, like API keys), the operator's GYG supplier ID, the outbound credentials GYG issues (the
-- password sealed with the instance's keys, like webhook secrets), a hold length override and the ticket
-- style. Bookings stay in the bookings table as partner bookings of marketplace 'getyourguide' with GYG's
-- reference as payment_reference (as OCTo's and the partner API's do); gyg_bookings adds what only GYG
-- has, and makes reserve idempotent on GYG's reference (unique per operator).

CREATE TABLE gyg_connections (
  operator_id INTEGER PRIMARY KEY REFERENCES operators(id),
  enabled INTEGER NOT NULL DEFAULT 0,
  username TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  supplier_id TEXT,
  outbound_username TEXT,
  outbound_password_sealed TEXT,
  hold_minutes INTEGER,
  ticket_style TEXT NOT NULL DEFAULT 'INDIVIDUAL',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Which activities GYG may sell, under which GYG product ID (GYG's productId is "the ID in the supplier's system").
CREATE TABLE gyg_products (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  product_id TEXT NOT NULL,
  PRIMARY KEY (operator_id, activity_id),
  UNIQUE (operator_id, product_id)
);

-- The operator's choice of GYG category for a ticket type, where it differs from the default that the
-- ticket type's own category gives; 'NONE' keeps a ticket type off GYG.
CREATE TABLE gyg_categories (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
  category TEXT NOT NULL,
  PRIMARY KEY (operator_id, ticket_type_id)
);

CREATE TABLE gyg_bookings (
  booking_id INTEGER PRIMARY KEY REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  gyg_booking_reference TEXT NOT NULL,
  product_id TEXT NOT NULL,
  -- JSON of the reserve's bookingItems, to tell a retry from another reservation under the same reference.
  items TEXT NOT NULL,
  ticket_style TEXT,
  comment TEXT,
  language TEXT,
  booked_at INTEGER,
  UNIQUE (operator_id, gyg_booking_reference)
);

-- GYG's notifications (PRODUCT_DEACTIVATION), shown to the operator.
CREATE TABLE gyg_notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  notification_type TEXT NOT NULL,
  product_id TEXT,
  description TEXT NOT NULL,
  details TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE INDEX gyg_notifications_operator ON gyg_notifications (operator_id, id);

-- The last requests GYG made (bounded per operator by the code): what and how it was answered, never who.
CREATE TABLE gyg_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  endpoint TEXT NOT NULL,
  product_id TEXT,
  error_code TEXT,
  duration_ms INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX gyg_requests_operator ON gyg_requests (operator_id, id);

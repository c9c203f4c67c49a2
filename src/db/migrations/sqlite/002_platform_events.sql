-- Platform events (docs/platform-events.md): the online shop's baskets and payments, waitlists, the
-- operator's e-mail workflows and the e-mail outbox. Instants to the second (due times, holds, claims) are
-- Unix seconds; created/sent/paid stamps are Unix milliseconds, as in 001.

-- A basket is a group of bookings held and paid together (the "multi-booking" of waitlist-notified).
-- The public addresses it by `token` (random, 128 bits); `id` is internal and goes into the meter entry.
CREATE TABLE baskets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  token TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid')),
  currency TEXT,
  customer_first_name TEXT NOT NULL,
  customer_last_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  customer_phone TEXT NOT NULL,
  -- the waitlist entry this basket offers seats to, for baskets the platform opened
  waitlist_entry_id INTEGER,
  payment_reference TEXT,
  created_at INTEGER NOT NULL,
  paid_at INTEGER
);

CREATE TABLE basket_items (
  basket_id INTEGER NOT NULL REFERENCES baskets(id),
  booking_id INTEGER NOT NULL UNIQUE REFERENCES bookings(id),
  activity_name TEXT NOT NULL,
  unit_price INTEGER NOT NULL,
  participants INTEGER NOT NULL,
  PRIMARY KEY (basket_id, booking_id)
);

-- Every payment attempt, successful or declined.
CREATE TABLE payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  basket_id INTEGER NOT NULL REFERENCES baskets(id),
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'declined')),
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  provider_reference TEXT,
  failure TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX payments_basket ON payments(basket_id);

CREATE TABLE waitlist_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  timeslot_id INTEGER NOT NULL REFERENCES timeslots(id),
  participants INTEGER NOT NULL,
  customer_first_name TEXT NOT NULL,
  customer_last_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  customer_phone TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('waiting', 'offered', 'claimed', 'expired', 'removed')),
  basket_id INTEGER REFERENCES baskets(id),
  offer_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  notified_at INTEGER
);
CREATE INDEX waitlist_entries_timeslot ON waitlist_entries(timeslot_id, status, id);
CREATE INDEX waitlist_entries_status ON waitlist_entries(status);
-- one place in the queue per customer and timeslot
CREATE UNIQUE INDEX waitlist_entries_once ON waitlist_entries(timeslot_id, customer_email) WHERE status IN ('waiting', 'offered');

CREATE TABLE workflows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  name TEXT NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('booking-confirmed', 'booking-cancelled', 'reminder', 'follow-up')),
  offset_hours INTEGER NOT NULL,
  subject_template TEXT NOT NULL,
  body_template TEXT NOT NULL,
  partner_bookings INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX workflows_operator ON workflows(operator_id, enabled);

-- The outbox: the source of truth of every e-mail. A worker in each server process claims due rows with a
-- conditional update (status, claimed_by, claimed_until), so each is sent by one process at a time.
CREATE TABLE emails (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  kind TEXT NOT NULL,
  workflow_id INTEGER REFERENCES workflows(id),
  booking_id INTEGER REFERENCES bookings(id),
  waitlist_entry_id INTEGER REFERENCES waitlist_entries(id),
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'cancelled')),
  scheduled_for INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  claimed_by TEXT,
  claimed_until INTEGER,
  last_error TEXT,
  transport TEXT,
  message_id TEXT,
  -- the built-in meter to record when this e-mail is sent, and its ExtraInfo
  meter TEXT,
  meter_extra_info TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  -- a workflow e-mails a booking at most once
  UNIQUE (workflow_id, booking_id)
);
CREATE INDEX emails_due ON emails(status, next_attempt_at);
CREATE INDEX emails_operator ON emails(operator_id, id);
CREATE INDEX emails_booking ON emails(booking_id, status);

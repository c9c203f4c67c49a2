-- Check-in at the door (docs/checkin.md): how many of each ticket line of a booking have arrived, and when
-- the first of them was checked in (OCTo's utcRedeemedAt). A side table rather than columns of bookings:
-- the booking row (and its webhook snapshot) stays as it is, and a booking nobody checked in has no row.
-- A line with nobody checked in has no row either (undo deletes it), so "checked in" is "a row exists".
CREATE TABLE booking_checkins (
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  checked_in INTEGER NOT NULL CHECK (checked_in > 0),
  -- Unix milliseconds: when this line was first checked in (kept while its count changes).
  checked_in_at BIGINT NOT NULL,
  PRIMARY KEY (booking_id, ticket_type_id)
);

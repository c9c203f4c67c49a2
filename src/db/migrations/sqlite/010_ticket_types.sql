-- Ticket types (docs/decisions.md "Ticket types"): an activity sells one or more kinds of ticket (adult,
-- child, infant, family, ...), each with its own price, limits per booking and seat rule. Capacity still
-- counts seats: a booking's seats are the sum of its seat-taking tickets (bookings.seats), and its ticket
-- mix is kept with the price at booking time (booking_tickets). Every activity that exists today becomes
-- one default type "Adult" at its UnitPrice, so that nothing that works today changes.

CREATE TABLE ticket_types (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  -- the partner API's Tickets[].Type and the OCTo unit id: stable, unique among the activity's live types
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  -- JSON object: BCP 47 tag -> {"Name": ...}
  translations TEXT NOT NULL,
  -- minor units of the activity's currency, per ticket
  price INTEGER NOT NULL CHECK (price >= 0),
  -- adult, child, youth, infant, senior, student, military, family or other (OCTo's unit type)
  category TEXT NOT NULL,
  min_age INTEGER,
  max_age INTEGER,
  -- people one ticket admits (a family ticket: several); seats it takes when takes_seat is 1
  people INTEGER NOT NULL CHECK (people >= 1),
  takes_seat INTEGER NOT NULL,
  min_per_booking INTEGER NOT NULL,
  max_per_booking INTEGER,
  -- the code of another type of the activity that a booking of this one must include (a child needs an adult)
  requires_code TEXT,
  -- the type a booking by Participants alone books; exactly one live type per activity
  is_default INTEGER NOT NULL,
  position INTEGER NOT NULL,
  -- a type removed from sale that bookings still name; it keeps its row for them
  archived INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE INDEX ticket_types_activity ON ticket_types(activity_id, position);
CREATE UNIQUE INDEX ticket_types_live_code ON ticket_types(activity_id, code) WHERE archived = 0;
CREATE UNIQUE INDEX ticket_types_live_default ON ticket_types(activity_id) WHERE is_default = 1 AND archived = 0;

-- A booking's tickets as sold: type, quantity and the price and names of that moment.
CREATE TABLE booking_tickets (
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
  code TEXT NOT NULL,
  name TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price INTEGER NOT NULL,
  currency TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (booking_id, ticket_type_id)
);
CREATE INDEX booking_tickets_type ON booking_tickets(ticket_type_id);

-- Seats a booking holds (participants stays the number of people). Existing bookings are all adults: one
-- seat each. The default only serves rows written before this migration; placeBooking always sets it.
ALTER TABLE bookings ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;
UPDATE bookings SET seats = participants;

-- start_time: a timeslot is a start time, bookable until it starts. opening_hours: a timeslot is a day's
-- opening hours (one per date) with a daily capacity, bookable until it closes.
ALTER TABLE activities ADD COLUMN availability_type TEXT NOT NULL DEFAULT 'start_time';
-- JSON array of OCTo contact fields a confirmation must carry (src/octo/contact.ts)
ALTER TABLE activities ADD COLUMN required_contact_fields TEXT NOT NULL DEFAULT '["firstName","lastName"]';

-- Unix seconds until which the timeslot takes bookings: its start, or its end for opening hours.
ALTER TABLE timeslots ADD COLUMN bookable_until INTEGER NOT NULL DEFAULT 0;
UPDATE timeslots SET bookable_until = starts_at;

-- The OCTo contact fields that have no column in bookings: {"notes", "country", "postalCode", "locales"}.
ALTER TABLE octo_bookings ADD COLUMN contact TEXT NOT NULL DEFAULT '{}';

INSERT INTO ticket_types (operator_id, activity_id, code, name, translations, price, category, min_age, max_age, people, takes_seat,
                          min_per_booking, max_per_booking, requires_code, is_default, position, archived, updated_at)
SELECT operator_id, id, 'adult', 'Adult', '{}', unit_price, 'adult', NULL, NULL, 1, 1, 0, NULL, NULL, 1, 1, 0, updated_at
FROM activities;

-- The price of an existing booking: what its basket recorded (online), else the activity's price now.
INSERT INTO booking_tickets (booking_id, ticket_type_id, code, name, quantity, unit_price, currency, position)
SELECT b.id, tt.id, 'adult', 'Adult', b.participants, COALESCE(bi.unit_price, a.unit_price), a.currency, 1
FROM bookings b
JOIN timeslots t ON t.id = b.timeslot_id
JOIN activities a ON a.id = t.activity_id
JOIN ticket_types tt ON tt.activity_id = a.id
LEFT JOIN basket_items bi ON bi.booking_id = b.id
WHERE b.participants > 0;

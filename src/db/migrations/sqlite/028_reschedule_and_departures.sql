-- Rescheduling and cancelled departures (issue 26, items 1 and 2; docs/bookings.md).
-- 1. Until how many hours before the start a guest may move their own booking to another time of the same
--    activity from the manage page; NULL (the default) means they may not (like guest_cancel_hours).
ALTER TABLE activities ADD COLUMN guest_reschedule_hours INTEGER;

-- 2. A cancelled departure: the timeslot takes no more bookings on any channel (bookable_until is set to
--    the moment of the cancellation and its capacity to 0; what it was is kept below), and cancelled_at
--    (Unix seconds) says so to the operator.
ALTER TABLE timeslots ADD COLUMN cancelled_at INTEGER;

-- The cancellation itself, once per timeslot: the operator's message to the guests, the capacity the
--    timeslot had, the bookings it cancelled (a JSON array of booking IDs, answered again by a repeated
--    call) and who cancelled it (the audit log's label).
CREATE TABLE departure_cancellations (
  timeslot_id INTEGER PRIMARY KEY REFERENCES timeslots(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  message TEXT NOT NULL,
  capacity INTEGER NOT NULL,
  booking_ids TEXT NOT NULL,
  cancelled_by TEXT NOT NULL,
  cancelled_at INTEGER NOT NULL
);
CREATE INDEX departure_cancellations_operator ON departure_cancellations(operator_id, cancelled_at);

-- 3. Workflows may e-mail the guest when their booking moves to another time (`booking-rescheduled`).
--    SQLite cannot change a CHECK: the table is rebuilt. emails.workflow_id references it, so the foreign
--    keys are checked at the commit, when the rebuilt table holds every row again.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE workflows_028 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  name TEXT NOT NULL,
  event TEXT NOT NULL CHECK (event IN ('booking-confirmed', 'booking-cancelled', 'booking-rescheduled', 'reminder', 'follow-up')),
  offset_hours INTEGER NOT NULL,
  subject_template TEXT NOT NULL,
  body_template TEXT NOT NULL,
  partner_bookings INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
INSERT INTO workflows_028 SELECT id, operator_id, name, event, offset_hours, subject_template, body_template, partner_bookings, enabled, created_at, updated_at FROM workflows;
DROP TABLE workflows;
ALTER TABLE workflows_028 RENAME TO workflows;
CREATE INDEX workflows_operator ON workflows(operator_id, enabled);

-- Rescheduling and cancelled departures (issue 26, items 1 and 2; docs/bookings.md).
-- 1. Until how many hours before the start a guest may move their own booking to another time of the same
--    activity from the manage page; NULL (the default) means they may not (like guest_cancel_hours).
ALTER TABLE activities ADD COLUMN guest_reschedule_hours INTEGER;

-- 2. A cancelled departure: the timeslot takes no more bookings on any channel (bookable_until is set to
--    the moment of the cancellation and its capacity to 0; what it was is kept below), and cancelled_at
--    (Unix seconds) says so to the operator.
ALTER TABLE timeslots ADD COLUMN cancelled_at BIGINT;

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
  cancelled_at BIGINT NOT NULL
);
CREATE INDEX departure_cancellations_operator ON departure_cancellations(operator_id, cancelled_at);

-- 3. Workflows may e-mail the guest when their booking moves to another time (`booking-rescheduled`).
ALTER TABLE workflows DROP CONSTRAINT workflows_event_check;
ALTER TABLE workflows ADD CONSTRAINT workflows_event_check
  CHECK (event IN ('booking-confirmed', 'booking-cancelled', 'booking-rescheduled', 'reminder', 'follow-up'));

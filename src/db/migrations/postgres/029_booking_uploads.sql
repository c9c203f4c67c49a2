-- A guest who completes the waiver of a booking after it was made (a point-of-sale or marketplace booking,
-- a waitlist claim: docs/booking-pages.md, "Completing the waiver") uploads its files through the booking's
-- own link: such a file belongs to that booking, which alone may name it, and counts against its quota.
ALTER TABLE uploads ADD COLUMN booking_id INTEGER REFERENCES bookings(id);
CREATE INDEX uploads_booking ON uploads (booking_id) WHERE booking_id IS NOT NULL;

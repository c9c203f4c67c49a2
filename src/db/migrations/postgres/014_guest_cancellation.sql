-- Guests may cancel their own booking from the link in their e-mails when the operator allows it for the
-- activity: until guest_cancel_hours hours before the start; NULL (the default, as before) means they may
-- not, and the link only shows the booking (docs/booking-pages.md).
ALTER TABLE activities ADD COLUMN guest_cancel_hours INTEGER;

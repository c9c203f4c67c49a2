-- Staff choose to be told of bookings by e-mail (issue 26, item 6): 'none' (the default), 'each' (an
-- e-mail per new, moved or cancelled booking) or 'digest' (one a day); digest_sent_on is the UTC date of
-- the last digest, so that a day's digest goes once.
ALTER TABLE staff_users ADD COLUMN booking_notices TEXT NOT NULL DEFAULT 'none';
ALTER TABLE staff_users ADD COLUMN digest_sent_on TEXT;
CREATE INDEX staff_users_booking_notices ON staff_users (operator_id, booking_notices, status);

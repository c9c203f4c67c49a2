-- Uploads named by holds (issue 23, finding 4). Until now a hold attached the files it named for good, so
-- the quotas stopped counting them and the sweep never deleted them, although most holds lapse. Now only a
-- confirmed booking attaches a file (attached_at); a hold keeps it from the sweep only until it lapses:
-- held_until (Unix milliseconds) is the latest expiry of a hold that named it. A held file is still its
-- uploader's, so the quotas count it, and it is swept UPLOAD_UNATTACHED_HOURS after that expiry.
ALTER TABLE uploads ADD COLUMN held_until BIGINT;

-- Files attached by holds alone go back to their uploader: those that no confirmed booking names. The files
-- of cancelled bookings stay attached, as they are kept for staff (a cancelled hold is not told apart from
-- a cancelled confirmed booking here, so both are kept). NOT EXISTS: PostgreSQL makes it one anti-join.
UPDATE uploads SET attached_at = NULL
  WHERE attached_at IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM waiver_answers
        JOIN bookings ON bookings.id = waiver_answers.booking_id
        WHERE bookings.status IN ('confirmed', 'cancelled')
          AND bookings.operator_id = uploads.operator_id AND waiver_answers.answer = uploads.public_id);

-- Those a hold still names are kept until its expiry; the others are swept on the usual schedule.
UPDATE uploads SET held_until = held.expires_ms
  FROM (SELECT bookings.operator_id, waiver_answers.answer, MAX(bookings.hold_expires_at) * 1000 AS expires_ms
          FROM bookings JOIN waiver_answers ON waiver_answers.booking_id = bookings.id
          WHERE bookings.status = 'on_hold'
          GROUP BY bookings.operator_id, waiver_answers.answer) AS held
  WHERE uploads.operator_id = held.operator_id AND uploads.public_id = held.answer AND uploads.attached_at IS NULL;

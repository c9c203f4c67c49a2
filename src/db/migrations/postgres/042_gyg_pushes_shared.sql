-- GetYourGuide's pushes join the marketplaces' one push queue (migration 040; docs/channels/getyourguide.md,
-- "Pushing availability"): the rows still queued in GYG's own table (migration 035) move to
-- marketplace_pushes under the channel 'getyourguide', with their attempts, due time and last error, so
-- nothing queued before the upgrade is lost or sent early; then GYG's table goes.
INSERT INTO marketplace_pushes (channel, timeslot_id, operator_id, product_id, queued_at, attempts, next_attempt_at, last_error)
SELECT 'getyourguide', timeslot_id, operator_id, product_id, queued_at, attempts, next_attempt_at, last_error
FROM gyg_pushes
ON CONFLICT (channel, timeslot_id) DO NOTHING;
DROP TABLE gyg_pushes;

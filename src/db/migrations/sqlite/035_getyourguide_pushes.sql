-- GetYourGuide pushes (docs/channels/getyourguide.md, "Pushing availability"): one row per timeslot of a
-- mapped product whose availability changed and is not yet told to GYG. The webhooks' dispatcher queues
-- them from its coalesced availability notes (one row per timeslot: a later change only brings the row
-- forward); the sender renders the timeslot as it is when it sends, so a queued row never sends stale seats.
CREATE TABLE gyg_pushes (
  timeslot_id INTEGER PRIMARY KEY REFERENCES timeslots(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  product_id TEXT NOT NULL,
  queued_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT
);
CREATE INDEX gyg_pushes_due ON gyg_pushes (next_attempt_at);

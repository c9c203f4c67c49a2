-- Pushes to marketplaces (GetYourGuide, Viator; docs/channels/): one row per channel and timeslot whose
-- availability changed and is not yet told to that marketplace. The webhooks' dispatcher queues them from
-- its coalesced availability notes (a later change only brings the row forward); each channel's sender
-- renders the timeslot as it is when it sends, so a queued row never sends stale seats. GetYourGuide's
-- own queue (gyg_pushes, migration 035) moves here when its sender uses the shared one.
CREATE TABLE marketplace_pushes (
  channel TEXT NOT NULL,
  timeslot_id INTEGER NOT NULL REFERENCES timeslots(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  product_id TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_error TEXT,
  PRIMARY KEY (channel, timeslot_id)
);
CREATE INDEX marketplace_pushes_due ON marketplace_pushes (channel, next_attempt_at);

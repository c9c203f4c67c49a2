-- Webhooks (docs/webhooks.md): the operator's and marketplaces' endpoints, the outbox of events written in
-- the transaction of the change that causes them, one delivery per event and endpoint, and every attempt.
-- Due times and claims are Unix seconds; created/attempted stamps Unix milliseconds, as in 002.

-- The operator's address for notices about the service itself, such as an endpoint disabled for failing.
ALTER TABLE operators ADD COLUMN contact_email TEXT;

CREATE TABLE webhook_endpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  url TEXT NOT NULL,
  description TEXT NOT NULL,
  -- space-separated event types, or '*' for every type but the opt-in ones
  event_types TEXT NOT NULL,
  -- a marketplace's endpoint: only that marketplace's bookings (and public events); NULL: everything
  partner TEXT,
  status TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason TEXT CHECK (disabled_reason IN ('manual', 'failing')),
  disabled_at INTEGER,
  -- the signing secret, sealed (src/secrets); after a rotation the previous one signs too until it expires
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_expires_at INTEGER,
  -- Unix seconds of the first failed attempt since the last success (auto-disable after days of it)
  failing_since INTEGER,
  last_success_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_operator ON webhook_endpoints(operator_id, status);

-- The outbox. A transaction that changes something an operator's endpoints may hear of writes one row
-- (per operator) as it commits: its events, each the JSON array [types, resource, audience, partner,
-- booking ID, snapshot, data], where `types` may name several events of one change ("booking.created
-- booking.confirmed") and the snapshot is the changed row as it was then (null: render the current row,
-- for states that never change again). No foreign key and no index but the key: the write stays small on
-- the path of a booking. The dispatcher turns rows into events and deletes them.
CREATE TABLE webhook_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL,
  events TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Events as sent: the resource as the API shows it (`data`), with the public ID that is webhook-id.
CREATE TABLE webhook_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  public_id TEXT NOT NULL UNIQUE,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  type TEXT NOT NULL,
  -- what the event is about, e.g. booking:BK-7KQ2MX9P; deliveries keep its order per endpoint
  resource TEXT NOT NULL,
  data TEXT NOT NULL,
  -- when it happened (its change committed), Unix milliseconds
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_events_created ON webhook_events(created_at);

-- Seats or capacity of a timeslot changed (append-only, so concurrent bookings never wait on one row);
-- the dispatcher turns them into at most one availability.changed per timeslot per few seconds.
CREATE TABLE webhook_timeslot_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL,
  timeslot_id INTEGER NOT NULL,
  changed_at INTEGER NOT NULL
);
CREATE INDEX webhook_timeslot_changes_timeslot ON webhook_timeslot_changes(timeslot_id, id);
CREATE TABLE webhook_availability_notices (
  timeslot_id INTEGER PRIMARY KEY,
  notified_at INTEGER NOT NULL
);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id INTEGER NOT NULL REFERENCES webhook_events(id),
  resource TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  claimed_by TEXT,
  claimed_until INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_duration_ms INTEGER,
  last_error TEXT,
  -- the delivery this one replays, for a replay; a test ping is never retried
  replay_of INTEGER,
  is_test INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at, id);
-- in order per endpoint and resource: a delivery waits for the earlier ones of its resource
CREATE INDEX webhook_deliveries_order ON webhook_deliveries(endpoint_id, resource, event_id);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);
-- retention: deliveries go with their events (and an event once nothing refers to it)
CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at INTEGER NOT NULL,
  status_code INTEGER,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  -- the start of the response body, capped
  response_body TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);

-- The sweep that expires lapsed holds looks only at holds.
CREATE INDEX bookings_live_holds ON bookings(hold_expires_at) WHERE status = 'on_hold';

-- slotbook schema, SQLite dialect. Times are Unix milliseconds (created/updated) or seconds (timeslot
-- starts, usage OccurredAt); local dates and clock times of an activity are TEXT 'YYYY-MM-DD' / 'HH:MM'.
-- Usage amounts are integer micro-units; daily totals are exact decimal strings added by decimal_add().

CREATE TABLE operators (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  lookup_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  partner TEXT,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_operator ON api_keys(operator_id);

CREATE TABLE activities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  public_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  duration_minutes INTEGER NOT NULL,
  timezone TEXT NOT NULL,
  currency TEXT NOT NULL,
  unit_price INTEGER NOT NULL,
  max_participants_per_booking INTEGER NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE INDEX activities_operator ON activities(operator_id, id);

CREATE TABLE timeslots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  date TEXT NOT NULL,
  time TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  -- seats held by confirmed bookings and by holds not yet released; never above capacity
  booked INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0 AND booked <= capacity),
  UNIQUE (activity_id, date, time)
);

CREATE TABLE questions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  question TEXT NOT NULL,
  type TEXT NOT NULL,
  required INTEGER NOT NULL,
  requires_file_upload INTEGER NOT NULL,
  options TEXT NOT NULL,
  translations TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX questions_activity ON questions(activity_id, position);

CREATE TABLE uploads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  public_id TEXT NOT NULL UNIQUE,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  content BLOB NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE bookings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  reference TEXT NOT NULL UNIQUE,
  timeslot_id INTEGER NOT NULL REFERENCES timeslots(id),
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  partner TEXT,
  payment_reference TEXT,
  participants INTEGER NOT NULL,
  customer_first_name TEXT NOT NULL,
  customer_last_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  customer_phone TEXT NOT NULL,
  waiver_status TEXT NOT NULL,
  hold_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  cancelled_at INTEGER
);
CREATE INDEX bookings_operator_created ON bookings(operator_id, created_at);
CREATE INDEX bookings_timeslot ON bookings(timeslot_id, status);

CREATE TABLE waiver_answers (
  booking_id INTEGER NOT NULL REFERENCES bookings(id),
  question_id INTEGER NOT NULL REFERENCES questions(id),
  answer TEXT NOT NULL,
  PRIMARY KEY (booking_id, question_id)
);

CREATE TABLE usage_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  meter TEXT NOT NULL,
  usage_micros INTEGER NOT NULL,
  extra_info TEXT,
  occurred_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX usage_entries_operator_occurred ON usage_entries(operator_id, occurred_at);

-- One row per operator, UTC day and meter, updated in the same transaction as every entry, so that a
-- summary reads at most days x meters rows however many entries exist.
CREATE TABLE usage_daily_totals (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  day TEXT NOT NULL,
  meter TEXT NOT NULL,
  total_micros TEXT NOT NULL,
  event_count INTEGER NOT NULL,
  PRIMARY KEY (operator_id, day, meter)
);

CREATE TABLE idempotency_keys (
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  response_location TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (operator_id, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);

-- Staff accounts, their sessions and one-time tokens, sign-in throttles, and the audit log
-- (docs/staff.md). Instants are Unix milliseconds. (SQLite dialect.)

-- A person's account with one operator. The e-mail address is kept in lower case; it is unique among the
-- operator's accounts that are not removed (a person may have accounts with several operators).
CREATE TABLE staff_users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'front-desk', 'guide')),
  status TEXT NOT NULL CHECK (status IN ('invited', 'active', 'removed')),
  -- scrypt$N$r$p$salt$hash; NULL until the invitation is accepted
  password_hash TEXT,
  -- TOTP secrets sealed with the instance key (src/secrets); pending until the first code confirms it
  totp_secret TEXT,
  totp_pending TEXT,
  totp_last_step INTEGER,
  -- JSON array of SHA-256 hashes of the unused recovery codes
  recovery_codes TEXT NOT NULL DEFAULT '[]',
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX staff_users_email ON staff_users (operator_id, email) WHERE status <> 'removed';
CREATE INDEX staff_users_by_email ON staff_users (email);

-- A signed-in browser. Only the SHA-256 of the cookie's token is stored.
CREATE TABLE staff_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  user_id INTEGER NOT NULL REFERENCES staff_users(id),
  token_hash TEXT NOT NULL UNIQUE,
  address TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX staff_sessions_user ON staff_sessions (user_id);

-- One-time tokens sent by e-mail (sign-in links, password resets, invitations) or handed out between the
-- two steps of a sign-in with TOTP. Only their SHA-256 is stored; a token is used at most once.
CREATE TABLE staff_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  user_id INTEGER NOT NULL REFERENCES staff_users(id),
  purpose TEXT NOT NULL CHECK (purpose IN ('sign-in-link', 'password-reset', 'invitation', 'totp-challenge')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX staff_tokens_user ON staff_tokens (user_id, purpose);

-- Counters of sign-in failures and e-mail requests per client address or e-mail address, per window.
CREATE TABLE staff_throttles (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  window_started_at INTEGER NOT NULL
);

-- Every change made by a user or an API key: who, what, when, from where, before and after (secrets
-- redacted). Append-only: the code has no path that changes or deletes a row, and the trigger below
-- refuses one.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  at INTEGER NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'key', 'system', 'anonymous')),
  actor_id INTEGER,
  actor_label TEXT NOT NULL,
  address TEXT,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT,
  before_json TEXT,
  after_json TEXT
);
CREATE INDEX audit_log_operator ON audit_log (operator_id, id);
CREATE INDEX audit_log_actor ON audit_log (operator_id, actor_type, actor_id, id);
CREATE INDEX audit_log_action ON audit_log (operator_id, action, id);
CREATE INDEX audit_log_resource ON audit_log (operator_id, resource_type, resource_id, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

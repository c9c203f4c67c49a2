-- The instance's master secret (src/secrets/), from which keys for HMAC fingerprints and sealed secrets are
-- derived, when SECRET_KEY is not configured. One row, created by the first process that needs it.
CREATE TABLE instance_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

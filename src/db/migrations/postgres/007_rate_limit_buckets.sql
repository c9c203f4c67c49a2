-- The rate limits' shared counters (src/http/shared-limiter.ts): one row per bucket (an API key, a client
-- address, an address's failed sign-ins) with the start of its current window and the permits every
-- process has taken in it. Processes take permits in leases, so a request never waits for this table
-- except when its process's lease runs out. UNLOGGED: no WAL and no fsync for counters that are
-- worthless after a crash (a crash empties the table, which only starts every window afresh).
CREATE UNLOGGED TABLE rate_limit_buckets (
  bucket TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  granted BIGINT NOT NULL
);

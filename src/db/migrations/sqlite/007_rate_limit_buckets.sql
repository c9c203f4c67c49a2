-- The rate limits' shared counters (src/http/shared-limiter.ts): one row per bucket (an API key, a client
-- address, an address's failed sign-ins) with the start of its current window and the permits every
-- process has taken in it. Processes take permits in leases, so a request never waits for this table
-- except when its process's lease runs out.
CREATE TABLE rate_limit_buckets (
  bucket TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  granted INTEGER NOT NULL
) WITHOUT ROWID;

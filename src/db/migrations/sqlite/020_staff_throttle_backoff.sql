-- Sign-in failures per client address slow the address down instead of shutting it out (docs/staff.md,
-- "Throttles"): a failure counter needs the time of its last failure, from which the next attempt must
-- wait. The run of failures starts again once an address has had none for a while. (SQLite dialect.)
ALTER TABLE staff_throttles ADD COLUMN last_at INTEGER;
UPDATE staff_throttles SET last_at = window_started_at;

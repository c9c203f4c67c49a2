-- No query of the service reads usage entries by time: summaries and charts read the daily and monthly
-- totals, and an entry is read by its ID. The index on (operator_id, occurred_at) still cost every insert
-- a descent into it, and a batch whose entries span an hour touches as many of its leaf pages as the
-- batch has distinct times: with concurrent batches of the last hour, SQLite ingested 65,000-77,000
-- entries/s with it and 183,000 without it (same run). A feature that lists raw entries by period should
-- add the index it needs, preferably one that new entries append to (e.g. by day, or by created_at).
DROP INDEX usage_entries_operator_occurred;

-- Uploads (issue 11, finding 6): who owns each file, and whether a booking uses it.
-- An upload belongs to its operator and to the API key (with the key's marketplace) or the shop basket
-- that sent it; a shop upload also keeps an HMAC of the client's address, for the per-address quota.
-- attached_at is set when a booking's waiver answer names the file; unattached files are deleted after
-- UPLOAD_UNATTACHED_HOURS.
ALTER TABLE uploads ADD COLUMN api_key_id INTEGER REFERENCES api_keys(id);
ALTER TABLE uploads ADD COLUMN partner TEXT;
ALTER TABLE uploads ADD COLUMN basket_id INTEGER REFERENCES baskets(id);
ALTER TABLE uploads ADD COLUMN client_fingerprint TEXT;
ALTER TABLE uploads ADD COLUMN attached_at BIGINT;

-- Files answered before this migration are attached; the others have no owner and are swept in time.
UPDATE uploads SET attached_at = created_at
  WHERE public_id IN (SELECT answer FROM waiver_answers);

-- The sweep, and the quotas, read only unattached files (and a basket's files).
CREATE INDEX uploads_unattached_created ON uploads (created_at) WHERE attached_at IS NULL;
CREATE INDEX uploads_unattached_key ON uploads (api_key_id) WHERE attached_at IS NULL;
CREATE INDEX uploads_unattached_client ON uploads (client_fingerprint) WHERE attached_at IS NULL;
CREATE INDEX uploads_basket ON uploads (basket_id) WHERE basket_id IS NOT NULL;

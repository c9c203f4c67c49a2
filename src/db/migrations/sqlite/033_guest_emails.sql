-- Confirmations that arrive (issue 26, item 3; docs/emails.md). The guest's language is kept with the
-- booking (and with the basket that will place bookings), 'en' for every booking before this migration.
-- A workflow names the channels whose bookings it e-mails: a comma list of online, pos, partner, octo.
-- Existing workflows keep what they did: partner_bookings = 1 meant every channel, 0 the operator's own.
-- Existing operators get no starter workflows here: what they send is theirs to decide (docs/emails.md).
ALTER TABLE bookings ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE baskets ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE workflows ADD COLUMN channels TEXT NOT NULL DEFAULT 'online,pos,partner,octo';
UPDATE workflows SET channels = 'online,pos' WHERE partner_bookings = 0;

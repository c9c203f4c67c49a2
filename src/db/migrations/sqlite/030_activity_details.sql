-- What guests need to know before they pay (issue 26, item 5), shown on the booking pages and in the
-- partner API's products: where to meet (JSON {Address, MapUrl, Latitude, Longitude}, NULL when not
-- given), what the price includes and what to bring (JSON arrays of short lines).
ALTER TABLE activities ADD COLUMN meeting_point TEXT;
ALTER TABLE activities ADD COLUMN inclusions TEXT NOT NULL DEFAULT '[]';
ALTER TABLE activities ADD COLUMN what_to_bring TEXT NOT NULL DEFAULT '[]';

-- GetYourGuide's bookings (those with a gyg_bookings row) were recorded under the partner name
-- `getyourguide`, which an API key's marketplace may have too: a partner-API or OCTo key made for that
-- name read and cancelled them, and its webhook endpoints heard them. They now carry GetYourGuide's own
-- name, `GetYourGuide`, which no key can take (a key's marketplace is lower-case: src/lib/marketplaces.ts).
-- Nothing else changes: bookings made through a key named `getyourguide` keep that name, and the key
-- keeps working at the same address, seeing its own bookings only.
UPDATE bookings SET partner = 'GetYourGuide'
WHERE partner = 'getyourguide' AND id IN (SELECT booking_id FROM gyg_bookings);

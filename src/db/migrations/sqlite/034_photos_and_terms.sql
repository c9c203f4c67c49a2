-- What guests need before they pay (issue 26, item 5; docs/booking-pages.md).
-- Activity photos: checked by their bytes and resized once, at upload (src/catalog/photos/); each size is
-- kept as its own JPEG, served under an address that names the photo's digest, so it is cached forever.
CREATE TABLE activity_photos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  activity_id INTEGER NOT NULL REFERENCES activities(id),
  digest TEXT NOT NULL,
  alt TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX activity_photos_activity ON activity_photos (activity_id, position);
CREATE UNIQUE INDEX activity_photos_digest ON activity_photos (activity_id, digest);
CREATE TABLE activity_photo_sizes (
  photo_id INTEGER NOT NULL REFERENCES activity_photos(id) ON DELETE CASCADE,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (photo_id, width)
);
-- The shop's terms and privacy pages (https addresses; NULL: none). While either is set, a checkout
-- needs the guest's acceptance, which is kept with each booking of the basket: when, and which addresses.
ALTER TABLE operators ADD COLUMN terms_url TEXT;
ALTER TABLE operators ADD COLUMN privacy_url TEXT;
CREATE TABLE booking_terms_acceptances (
  booking_id INTEGER PRIMARY KEY REFERENCES bookings(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  accepted_at INTEGER NOT NULL,
  terms_url TEXT,
  privacy_url TEXT
);

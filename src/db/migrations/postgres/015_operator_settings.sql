-- The operator's shop settings (docs/embed.md, src/settings/; PostgreSQL dialect): the name guests see
-- (NULL: the operator's name), the brand colour (#rrggbb, NULL: slotbook's), the websites allowed to frame the booking pages
-- (a JSON array of origins; empty: any), the logo (one image per operator, served publicly under its
-- digest) and the slugs an operator had before, so that old links to /book/{slug} keep redirecting.
ALTER TABLE operators ADD COLUMN shop_name TEXT;
ALTER TABLE operators ADD COLUMN brand_colour TEXT;
ALTER TABLE operators ADD COLUMN embed_origins TEXT NOT NULL DEFAULT '[]';
CREATE TABLE operator_logos (
  operator_id INTEGER PRIMARY KEY REFERENCES operators(id),
  content_type TEXT NOT NULL,
  content BYTEA NOT NULL,
  digest TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE former_slugs (
  slug TEXT PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  replaced_at BIGINT NOT NULL
);

-- Each operator's booking pages live at /book/{slug} (docs/booking-pages.md). Operators created before
-- this migration get "op-{id}", the first operator named "Demo Adventures" (the demo seed) gets "demo".
-- The column stays nullable so that SQLite can add it in place; every operator the service creates gets
-- one (src/operators/slug.ts), and the unique index makes two operators' pages impossible to confuse.
ALTER TABLE operators ADD COLUMN slug TEXT;
UPDATE operators SET slug = 'op-' || id;
UPDATE operators SET slug = 'demo' WHERE id = (SELECT min(id) FROM operators WHERE name = 'Demo Adventures');
CREATE UNIQUE INDEX operators_slug ON operators(slug);

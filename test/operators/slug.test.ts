// Operator slugs (migration 013): derived from the name, unique, 'demo' for the demo operator, and given to
// the operators of a database written before the migration.
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { migrate } from '../../src/db/migrate.js';
import { seedDemo } from '../../src/demo/seed.js';
import { createOperator } from '../../src/operators/service.js';
import { isSlug, operatorIdBySlug, slugify } from '../../src/operators/slug.js';
import { createTestDatabase, migrateBefore } from '../helpers/database.js';
import { nowMillis } from '../../src/lib/clock.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function freshDatabase(): Promise<Db> {
  const database = await createTestDatabase();
  const db = openDatabase(database.config);
  cleanup.push(
    () => database.drop(),
    () => db.close(),
  );
  return db;
}

describe('slugify', () => {
  it.each([
    ["Müller's Kayak Tours!", 'mullers-kayak-tours'],
    ['  Escape -- Rooms  ', 'escape-rooms'],
    ['東京', 'op'],
    ['A'.repeat(60), 'a'.repeat(32)],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(isSlug(slug)).toBe(true);
  });

  it.each(['', 'a', '-ab', 'ab-', 'a--b', 'Ab', 'a/b', 'a'.repeat(41)])('refuses %j', (text) => {
    expect(isSlug(text)).toBe(false);
  });
});

describe('operator slugs', () => {
  it('gives each new operator its own slug and finds the operator by it', async () => {
    const db = await freshDatabase();
    await migrate(db);
    const first = await createOperator(db, 'Kayak Co');
    const second = await createOperator(db, 'Kayak Co');
    expect(await operatorIdBySlug(db.kysely, 'kayak-co')).toBe(first.operatorId);
    expect(await operatorIdBySlug(db.kysely, 'kayak-co-2')).toBe(second.operatorId);
    expect(await operatorIdBySlug(db.kysely, 'nobody')).toBeUndefined();
  });

  it('calls the demo operator demo', async () => {
    const db = await freshDatabase();
    await migrate(db);
    const demo = await seedDemo(db);
    expect(await operatorIdBySlug(db.kysely, 'demo')).toBe(demo.operatorId);
  });

  it('gives operators written before migration 013 a slug', async () => {
    const db = await freshDatabase();
    await migrateBefore(db, '013');
    for (const name of ['Demo Adventures', 'Demo Adventures', 'Other']) {
      await db.kysely.insertInto('operators').values({ name, created_at: nowMillis() }).execute();
    }
    await migrate(db);
    const rows = await db.kysely.selectFrom('operators').select(['id', 'slug']).orderBy('id').execute();
    expect(rows.map((row) => row.slug)).toEqual(['demo', `op-${rows[1]!.id}`, `op-${rows[2]!.id}`]);
  });
});

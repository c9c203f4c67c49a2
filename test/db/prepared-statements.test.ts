// PostgreSQL: statements with parameters are prepared once per connection (db/connection.ts). When a
// table a prepared `SELECT *` reads changes its columns under it (another process migrated), PostgreSQL
// refuses that statement ("cached plan must not change result type"): the query fails once, and the
// connection then stops preparing, so the next query works.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDialect } from '../helpers/database.js';

describe.runIf(testDialect() === 'postgres')('prepared statements on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await sql`CREATE TABLE scratch (id INTEGER PRIMARY KEY, a TEXT)`.execute(t.db.kysely);
    await sql`INSERT INTO scratch VALUES (1, 'one')`.execute(t.db.kysely);
  });
  afterAll(() => t.close());

  it('fails one query when a table changes under a prepared SELECT *, then stops preparing on that connection', async () => {
    await t.db.kysely.connection().execute(async (conn) => {
      const read = () => sql<Record<string, unknown>>`SELECT * FROM scratch WHERE id = ${1}`.execute(conn);
      expect((await read()).rows).toEqual([{ id: 1, a: 'one' }]);
      expect((await read()).rows).toEqual([{ id: 1, a: 'one' }]);
      // Another connection (another process, say) adds a column.
      await sql`ALTER TABLE scratch ADD COLUMN b TEXT`.execute(t.db.kysely);
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([{ id: 1, a: 'one', b: null }]);
      expect((await read()).rows).toEqual([{ id: 1, a: 'one', b: null }]);
    });
  });
});

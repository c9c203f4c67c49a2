// A fresh database with the schema as it was before a migration, applied the way migrate() applies it,
// for the tests of what that migration does to data written before it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/connection.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/** The migrations whose file names sort before `migration` (e.g. '010'), applied to a new database. */
export async function databaseBefore(migration: string): Promise<{ database: TestDatabase; db: Db }> {
  const database = await createTestDatabase();
  const db = openDatabase(database.config);
  const folder = fileURLToPath(new URL(`../../src/db/migrations/${db.dialect}/`, import.meta.url));
  await db.write(async (tx) => {
    await sql`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(tx);
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.sql') && file < migration).sort()) {
      await db.execScript(tx, readFileSync(folder + name, 'utf8'));
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(tx);
    }
  });
  return { database, db };
}

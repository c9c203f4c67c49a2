// Applies the SQL files of src/db/migrations/<dialect>/ in name order, each once, all in one write
// transaction. Several processes may start at once: SQLite's write lock and a PostgreSQL advisory lock
// let one of them migrate while the others wait and then find nothing left to do.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './connection.js';

const MIGRATION_LOCK = 74_231_001;

export async function migrate(db: Db): Promise<string[]> {
  // Relative to the package root, so that the compiled dist/db/migrate.js reads the same SQL files.
  const folder = fileURLToPath(new URL(`../../src/db/migrations/${db.dialect}/`, import.meta.url));
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  return db.write(async (tx) => {
    if (db.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(tx);
    const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(tx);
    const done = new Set(applied.rows.map((row) => row.name));
    const pending = files.filter((name) => !done.has(name));
    for (const name of pending) {
      await db.execScript(tx, readFileSync(`${folder}${name}`, 'utf8'));
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(tx);
    }
    return pending;
  });
}

/**
 * A write statement that changes nothing (the readiness probe's): refused like any write by a read-only
 * database (a standby, a read-only file), yet it writes nothing and takes no row lock.
 */
export async function probeWrite(db: Db): Promise<void> {
  await sql`UPDATE schema_migrations SET name = name WHERE 1 = 0`.execute(db.kysely);
}

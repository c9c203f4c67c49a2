// What a backup records of the database it copies, and what a restore checks of the one it writes to.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The migrations applied, in order; [] for a database slotbook never migrated. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`.execute(db);
    return rows.map((row) => row.name);
  } catch {
    return [];
  }
}

/** Counts to show after a backup or a restore (and to compare the two). */
export async function tableCounts(db: Kysely<Database>): Promise<{ operators: number; bookings: number; uploads: number; photos: number }> {
  const count = async (table: 'operators' | 'bookings' | 'uploads' | 'activity_photos') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    operators: await count('operators'),
    bookings: await count('bookings'),
    uploads: await count('uploads'),
    photos: await count('activity_photos'),
  };
}

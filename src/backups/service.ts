// `slotbook backup <file>` and `slotbook restore <file>` (docs/backups.md). A backup is one tar file:
// `slotbook-backup.json` (what it is: dialect, time, migrations, the files beside the database), the
// database itself, and the files of DATA_DIR. Uploaded waiver files and activity photos are rows of the
// database (uploads, activity_photos, activity_photo_sizes), so they are in the database's copy, taken at
// one instant with everything that names them.
//
// SQLite: better-sqlite3's online backup API copies the database page by page from a connection of its
// own while the service keeps writing; all pages are copied in one step, so the copy is one consistent
// snapshot (in WAL mode the writers do not wait for it). PostgreSQL: `pg_dump --format=custom`, one
// repeatable-read snapshot, restored with `pg_restore` in a single transaction.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import { ArchiveWriter, extractMember, readMember, readMembers } from './archive.js';
import { dumpPostgres, restorePostgres } from './postgres.js';
import { appliedMigrations, tableCounts } from './store.js';
import { BackupError } from './errors.js';

export { BackupError };

const MANIFEST = 'slotbook-backup.json';
const FORMAT = 1;
const DATABASE_MEMBER = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;

export interface BackupManifest {
  Format: number;
  Dialect: 'sqlite' | 'postgres';
  CreatedAt: string;
  Migrations: string[];
  /** The files of DATA_DIR, by their path in the archive (data/...). */
  Files: string[];
}

/** Regular files of the data folder worth keeping: not the SQLite database (copied apart) nor its journals. */
function dataFiles(config: Config, exclude: string[]): string[] {
  const root = resolve(config.dataDir);
  if (!existsSync(root)) return [];
  const skip = new Set(exclude.map((path) => resolve(path)));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      if (!entry.isFile() || skip.has(path)) return [];
      if (config.database.dialect === 'sqlite') {
        const db = resolve(config.database.file);
        if (path === db || path.startsWith(`${db}-`)) return [];
      }
      return [path];
    });
  return walk(root).filter((path) => Buffer.byteLength(`data/${relative(root, path)}`) <= 100);
}

/** Writes the backup of the configured database (and DATA_DIR) to `file`, which must not exist yet. */
export async function backup(config: Config, file: string): Promise<BackupManifest & { Bytes: number }> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${file} exists already: choose a new file name (a backup never overwrites one)`);
  if (!existsSync(dirname(target))) throw new BackupError(`the folder ${dirname(target)} does not exist`);
  const work = await mkdtemp(join(tmpdir(), 'slotbook-backup-'));
  const partial = `${target}.partial`;
  let archive: ArchiveWriter | undefined;
  try {
    const copy = join(work, DATABASE_MEMBER[config.database.dialect]);
    let migrations: string[];
    if (config.database.dialect === 'sqlite') {
      if (!existsSync(config.database.file)) throw new BackupError(`no SQLite database at ${config.database.file} (DATABASE_URL)`);
      const source = new SQLite(config.database.file, { readonly: true, fileMustExist: true });
      try {
        // Every remaining page in one step: one read transaction, so one consistent instant.
        await source.backup(copy, { progress: () => 0x7fffffff });
      } finally {
        source.close();
      }
      const copied = openDatabase({ dialect: 'sqlite', file: copy });
      try {
        migrations = await appliedMigrations(copied.kysely);
      } finally {
        await copied.close();
      }
    } else {
      const db = openDatabase(config.database);
      try {
        migrations = await appliedMigrations(db.kysely);
      } finally {
        await db.close();
      }
      await dumpPostgres(config.database.url, copy);
    }
    const root = resolve(config.dataDir);
    const files = dataFiles(config, [target, partial]);
    const manifest: BackupManifest = {
      Format: FORMAT,
      Dialect: config.database.dialect,
      CreatedAt: new Date().toISOString(),
      Migrations: migrations,
      Files: files.map((path) => `data/${relative(root, path)}`),
    };
    rmSync(partial, { force: true });
    archive = await ArchiveWriter.create(partial);
    await archive.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await archive.addFile(DATABASE_MEMBER[config.database.dialect], copy);
    for (const [index, path] of files.entries()) await archive.addFile(manifest.Files[index]!, path);
    await archive.finish();
    archive = undefined;
    // Only a complete archive takes the name: a backup cut short leaves a .partial file, never a broken backup.
    renameSync(partial, target);
    return { ...manifest, Bytes: statSync(target).size };
  } catch (error) {
    await archive?.abandon();
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface RestoreOptions {
  /** Replace a database (and data files) that exist already. */
  force?: boolean;
}

/**
 * Restores `file` into the configured database and DATA_DIR. Refuses a database that holds slotbook's
 * tables already unless `force`; the service must not be running on it. Migrates afterwards, so a backup
 * of an older version comes back at this version's schema.
 */
export async function restore(config: Config, file: string, options: RestoreOptions = {}) {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupError(`no backup at ${file}`);
  const members = await readMembers(source);
  const manifestMember = members.find((member) => member.name === MANIFEST);
  if (!manifestMember) throw new BackupError(`${file} is not a slotbook backup (it has no ${MANIFEST})`);
  const manifest = JSON.parse((await readMember(source, manifestMember)).toString('utf8')) as BackupManifest;
  if (manifest.Format !== FORMAT) throw new BackupError(`${file} is a backup of format ${manifest.Format}; this slotbook reads format ${FORMAT}`);
  if (manifest.Dialect !== config.database.dialect) {
    throw new BackupError(
      `${file} is a backup of a ${manifest.Dialect} database, and DATABASE_URL names a ${config.database.dialect} one: restore it into the same kind`,
    );
  }
  const known = new Set(readdirSync(new URL(`../../src/db/migrations/${manifest.Dialect}/`, import.meta.url)));
  const unknown = manifest.Migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(`${file} was made by a newer slotbook (migrations ${unknown.join(', ')}): restore it with that version or a later one`);
  }
  const databaseMember = members.find((member) => member.name === DATABASE_MEMBER[manifest.Dialect]);
  if (!databaseMember) throw new BackupError(`${file} has no database in it`);

  const work = await mkdtemp(join(tmpdir(), 'slotbook-restore-'));
  try {
    if (config.database.dialect === 'sqlite') {
      const target = resolve(config.database.file);
      if (existsSync(target) && statSync(target).size > 0 && !options.force) {
        throw new BackupError(
          `a database exists at ${config.database.file}: stop the service and restore with --force to replace it, or choose another DATABASE_URL`,
        );
      }
      mkdirSync(dirname(target), { recursive: true });
      // Beside the target first (the same file system), then renamed over it: never half a database.
      const staged = join(dirname(target), `.${basename(target)}.restoring`);
      rmSync(staged, { force: true });
      await extractMember(source, databaseMember, staged);
      for (const journal of ['-wal', '-shm', '-journal']) rmSync(`${target}${journal}`, { force: true });
      renameSync(staged, target);
    } else {
      const target = openDatabase(config.database);
      const exists = await appliedMigrations(target.kysely).then(
        (names) => names.length > 0,
        () => false,
      );
      await target.close();
      if (exists && !options.force) {
        throw new BackupError(
          'the database of DATABASE_URL holds slotbook tables already: stop the service and restore with --force to replace them, or create an empty database',
        );
      }
      const copy = join(work, databaseMember.name);
      await extractMember(source, databaseMember, copy);
      await restorePostgres(config.database.url, copy, exists);
    }
    const root = resolve(config.dataDir);
    const restoredFiles: string[] = [];
    for (const name of manifest.Files) {
      const member = members.find((m) => m.name === name);
      if (!member) continue;
      const path = resolve(root, relative('data', name));
      if (!path.startsWith(`${root}/`)) continue; // never outside DATA_DIR
      if (existsSync(path)) {
        if (!options.force) continue;
        rmSync(path);
      }
      mkdirSync(dirname(path), { recursive: true });
      await extractMember(source, member, path);
      restoredFiles.push(name);
    }
    const db = openDatabase(config.database);
    try {
      const applied = await migrate(db);
      return { ...manifest, Migrated: applied, RestoredFiles: restoredFiles, Counts: await tableCounts(db.kysely) };
    } finally {
      await db.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// SQLite: prepared statements are kept for reuse (db/statement-cache.ts). A kept statement must answer as
// a fresh one would: after another connection changes the table under it, while one of its reads is still
// being iterated, and with the least recently used ones dropped beyond the bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDialect } from '../helpers/database.js';
import { CACHED_SQL_LENGTH, withStatementCache } from '../../src/db/statement-cache.js';

describe.runIf(testDialect() === 'sqlite')('the SQLite statement cache', () => {
  let dir: string;
  let raw: SQLite.Database;
  let prepared: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slotbook-statements-'));
    raw = new SQLite(join(dir, 'test.db'));
    raw.pragma('journal_mode = WAL');
    raw.exec(`CREATE TABLE scratch (id INTEGER PRIMARY KEY, a TEXT); INSERT INTO scratch VALUES (1, 'one'), (2, 'two')`);
    // Counts what reaches SQLite's prepare, to tell a kept statement from a new one.
    prepared = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      prepared.push(text);
      return prepare(text);
    }) as typeof raw.prepare;
  });
  afterEach(() => {
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares a text once and answers from the kept statement with new parameters', () => {
    const cached = withStatementCache(raw);
    const read = (id: number) => cached.prepare('SELECT a FROM scratch WHERE id = ?').all([id]);
    expect(read(1)).toEqual([{ a: 'one' }]);
    expect(read(2)).toEqual([{ a: 'two' }]);
    expect(prepared).toEqual(['SELECT a FROM scratch WHERE id = ?']);
  });

  it('reads columns another connection added after the statement was kept', () => {
    const cached = withStatementCache(raw);
    const readAll = () => cached.prepare('SELECT * FROM scratch WHERE id = ?').all([1]);
    expect(readAll()).toEqual([{ id: 1, a: 'one' }]);
    const other = new SQLite(raw.name);
    other.exec(`ALTER TABLE scratch ADD COLUMN b TEXT DEFAULT 'new'`);
    other.close();
    expect(readAll()).toEqual([{ id: 1, a: 'one', b: 'new' }]);
  });

  it('prepares anew while the kept statement is still being iterated', () => {
    const cached = withStatementCache(raw);
    const text = 'SELECT id FROM scratch WHERE id > ? ORDER BY id';
    const iterating = cached.prepare(text).iterate([0]) as IterableIterator<{ id: number }>;
    expect(iterating.next().value).toEqual({ id: 1 });
    expect(cached.prepare(text).all([0])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(iterating.next().value).toEqual({ id: 2 });
    expect(iterating.next().done).toBe(true);
    expect(prepared).toEqual([text, text]);
  });

  it('drops the least recently used statement beyond its bound', () => {
    const cached = withStatementCache(raw, 2);
    const run = (text: string) => cached.prepare(text).all([0]);
    run('SELECT 1 + ?');
    run('SELECT 2 + ?');
    run('SELECT 1 + ?'); // now the most recent
    run('SELECT 3 + ?'); // drops SELECT 2
    run('SELECT 1 + ?');
    run('SELECT 2 + ?');
    expect(prepared).toEqual(['SELECT 1 + ?', 'SELECT 2 + ?', 'SELECT 3 + ?', 'SELECT 2 + ?']);
  });

  it('keeps neither statements without parameters (values written in) nor long texts', () => {
    const cached = withStatementCache(raw);
    const long = `SELECT ? || '${'x'.repeat(CACHED_SQL_LENGTH)}' AS long`;
    for (let i = 0; i < 2; i++) {
      cached.prepare('SELECT a FROM scratch WHERE id = 1').all([]);
      cached.prepare(long).all(['y']);
    }
    expect(prepared).toEqual(['SELECT a FROM scratch WHERE id = 1', long, 'SELECT a FROM scratch WHERE id = 1', long]);
  });

  it('keeps the short commands every transaction runs', () => {
    const cached = withStatementCache(raw);
    for (let i = 0; i < 3; i++) {
      cached.prepare('BEGIN IMMEDIATE').run([]);
      cached.prepare('COMMIT').run([]);
    }
    expect(prepared).toEqual(['BEGIN IMMEDIATE', 'COMMIT']);
  });

  it('serves Kysely: writes and reads through the dialect', async () => {
    const kysely = new Kysely<{ scratch: { id: number; a: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
    for (const id of [3, 4, 5])
      await kysely
        .insertInto('scratch')
        .values({ id, a: `#${id}` })
        .execute();
    const rows = await kysely.selectFrom('scratch').select('a').where('id', '>', 2).orderBy('id').execute();
    expect(rows.map((row) => row.a)).toEqual(['#3', '#4', '#5']);
    expect(prepared.filter((text) => text.startsWith('insert'))).toHaveLength(1);
    await sql`SELECT 1`.execute(kysely);
  });
});

// The suite runs once per database: always on SQLite, and on PostgreSQL too when one answers at
// TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres). Each test file gets its own
// freshly migrated database (test/helpers/database.ts).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresReachable } from './test/helpers/local.js';

const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default defineConfig(async () => {
  const withPostgres = process.env.TEST_SKIP_POSTGRES !== '1' && (await postgresReachable(postgresUrl));
  if (!withPostgres) console.warn(`PostgreSQL not reachable at ${postgresUrl}: running the suite on SQLite only`);
  const shared = { include: ['test/**/*.test.ts', 'src/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 };
  return {
    test: {
      // The suite waits far more than it computes (fsync, PostgreSQL, child processes, Chromium): one test
      // file more than there are cores keeps them busy. Vitest's default (cores - 1) ran it one file at a
      // time on 2 cores: 15 minutes, against 9.5 with 3 at once.
      maxWorkers: availableParallelism() + 1,
      projects: [
        { test: { ...shared, name: 'sqlite', env: { TEST_DIALECT: 'sqlite' } } },
        ...(withPostgres ? [{ test: { ...shared, name: 'postgres', env: { TEST_DIALECT: 'postgres', TEST_POSTGRES_URL: postgresUrl } } }] : []),
      ],
    },
  };
});

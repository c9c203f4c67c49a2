// A PostgreSQL cluster of a test's own (initdb into a temporary directory, a free port on 127.0.0.1), for
// tests that restart or stop the server: the shared one on :5432 serves every other test file and must
// never be restarted. PostgreSQL refuses to run as root, so as root the cluster runs as `postgres`.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './local.js';

const run = promisify(execFile);
export const POSTGRES_BIN = process.env.TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivateCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** The URL of another database on this cluster. */
  database(name: string): string;
  /** pg_ctl restart (fast: sessions are ended, the server stops and starts again). */
  restart(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): Promise<void>;
}

/** Why a private cluster cannot be made here, or undefined when it can. */
export function privateClusterUnavailable(): string | undefined {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(POSTGRES_BIN, tool))) return `${join(POSTGRES_BIN, tool)} is missing (install postgresql-15, or set TEST_POSTGRES_BIN)`;
  }
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser')) return 'running as root without /usr/sbin/runuser to run PostgreSQL as postgres';
  return undefined;
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'slotbook-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run('/usr/sbin/runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN, name), ...args], { cwd: dir })
      : run(join(POSTGRES_BIN, name), args, { cwd: dir });
  const data = join(dir, 'data');
  const port = await freePort();
  // fsync off: nothing here must survive the machine's crash, only PostgreSQL's own restart.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  await tool('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    database: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    restart: async () => {
      await tool('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-m', 'fast', '-w', '-t', '60', 'restart']);
    },
    destroy: async () => {
      await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// PostgreSQL's own tools for backups: pg_dump in its custom format (compressed, one consistent snapshot,
// restored selectively and in parallel by pg_restore), found on PATH. The password travels in PGPASSWORD,
// never on the command line where `ps` would show it.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BackupError } from './errors.js';

const INSTALL_HINT =
  'install the PostgreSQL client programs of the same major version as the server or newer (Debian/Ubuntu: apt-get install postgresql-client; ' +
  'the official container image: they come with postgres:<version>; macOS: brew install libpq) and make sure they are on PATH';

/** The program's path on PATH, or a BackupError saying what to install. */
export function findProgram(name: string, path = process.env.PATH ?? ''): string {
  for (const dir of path.split(delimiter).filter((d) => d !== '')) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new BackupError(`${name} was not found on PATH: ${INSTALL_HINT}`);
}

/** The URL without its password, and the password apart. */
function connection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

function run(program: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(findProgram(program), args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${program} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}

export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${dbname}`], env);
}

/** Restores the dump in one transaction; `replace` drops what the dump holds first. */
export async function restorePostgres(url: string, file: string, replace: boolean): Promise<void> {
  const { dbname, env } = connection(url);
  await run(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(replace ? ['--clean', '--if-exists'] : []),
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
}

// Real `slotbook serve` processes for tests that need several processes on one database, or a crash.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './local.js';

// The sources through tsx, so that a test run checks the code as it is, built or not (test/cli.test.ts
// checks the compiled command once).
export const CLI_ARGS = ['--import', 'tsx', fileURLToPath(new URL('../../src/cli.ts', import.meta.url))];

/**
 * The master secret of the tests' processes (production refuses to start without one). Every helper that
 * starts the service, a command or an app on a database gives it the same one, so that what one of them
 * seals or fingerprints the others can open.
 */
export const TEST_SECRET_KEY = 'test-secret-key-of-the-slotbook-test-suite';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends the signal and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `imports`: test modules the process loads before the service (test/helpers/event-loop-staller.ts), so
 * that what only a test may do to a process is never in the service's own code.
 */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}, imports: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [tsxFlag, tsx, cli] = CLI_ARGS;
  const args = [tsxFlag!, tsx!, ...imports.flatMap((file) => ['--import', file]), cli!];
  const child = spawn(process.execPath, [...args, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production', // no demo data
      SECRET_KEY: TEST_SECRET_KEY,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
      // A busy test machine (tsx compiling on first use, other test files) lags the loop for seconds at
      // times: only the overload test (test/http/overload.test.ts) turns the refusal on.
      OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null = null;
  child.once('exit', (code) => (exitCode = code ?? 1));
  // Ready when /healthz answers (whatever LOG_LEVEL hides). Compiling the sources through tsx takes over
  // 30 s when the machine is busy with other test files.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== null) throw new Error(`server exited with ${exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    const ready = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Runs the `slotbook` command line and returns its stdout. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
    env: { ...process.env, SECRET_KEY: TEST_SECRET_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  return { code, stdout, stderr };
}

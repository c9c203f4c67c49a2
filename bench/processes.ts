// The processes under test: the real service (`bin/slotbook.js serve`, compiled, as users run it) and the bare Fastify baseline,
// each a child on its own port, and a sampler of a child's resident memory (VmRSS) while a scenario runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/local.js';

const BIN = fileURLToPath(new URL('../bin/slotbook.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
const RECEIVER = fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url));
const SENDER = fileURLToPath(new URL('./webhook-sender.ts', import.meta.url));
/** The webhook receiver's certificate, which the service trusts as it would a real endpoint's. */
const RECEIVER_CA = fileURLToPath(new URL('./tls/receiver.crt', import.meta.url));

export interface Child {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

async function startChild(command: string, args: string[], env: Record<string, string>, readyPath: string): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not start:\n${output}`);
    }
    if (
      await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The service as users run it (bin/slotbook.js and its shebang's V8 flag, over dist/ built by run.ts),
 * with logging at warn and no rate limit unless `settings` say otherwise; `profileDir` adds --cpu-prof.
 */
export function startService(databaseUrl: string, profileDir?: string, settings: Record<string, string> = {}): Promise<Child> {
  const env = {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    // Production refuses to start without one (any value of 32 characters or more does for a benchmark).
    SECRET_KEY: 'bench-secret-key-of-the-slotbook-benchmark',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...settings,
    // The webhook scenario's receiver: https on 127.0.0.1, which production refuses unless allowed.
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    NODE_EXTRA_CA_CERTS: RECEIVER_CA,
    // For experiments only (e.g. V8 heap flags); reported runs leave it unset.
    ...(process.env.BENCH_SERVICE_NODE_OPTIONS && { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS }),
  };
  if (!profileDir) return startChild(BIN, ['serve'], env, '/readyz');
  // --cpu-prof is refused in NODE_OPTIONS: run node itself, with the shebang's flags.
  const flags = readFileSync(BIN, 'utf8')
    .split('\n')[0]!
    .split(' ')
    .filter((word) => word.startsWith('--'));
  return startChild(process.execPath, [...flags, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, BIN, 'serve'], env, '/readyz');
}

/** The bare Fastify baseline: canned JSON bodies and a one-row insert into `databaseUrl`. */
export function startBaseline(databaseUrl: string, bodiesFile: string): Promise<Child> {
  return startChild(process.execPath, ['--import', 'tsx', BASELINE], { BASELINE_DATABASE_URL: databaseUrl, BASELINE_BODIES: bodiesFile }, '/ready');
}

/** The webhook receiver: `url` is its control port (/stats); it takes webhooks at `hookUrl`. */
export async function startWebhookReceiver(): Promise<Child & { hookUrl: string }> {
  const hookPort = await freePort();
  const child = await startChild(process.execPath, ['--import', 'tsx', RECEIVER], { HOOK_PORT: String(hookPort) }, '/ready');
  return { ...child, hookUrl: `https://127.0.0.1:${hookPort}/hook` };
}

/** The bare webhook sender (bench/webhook-sender.ts): `count` signed POSTs of `body`, `concurrency` at once. */
export function runBareSender(hookUrl: string, body: string, count: number, concurrency: number): Promise<{ rate: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SENDER], {
      env: { ...process.env, HOOK_URL: hookUrl, HOOK_BODY: body, COUNT: String(count), CONCURRENCY: String(concurrency) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`the bare webhook sender exited with ${code}: ${output}`);
        resolve(JSON.parse(output) as { rate: number; failed: number });
      } catch (error) {
        reject(error);
      }
    });
  });
}

export interface MemorySample {
  maxMb: number;
  meanMb: number;
}

/** Reads VmRSS of `pid` every 100 ms between start() and stop(). */
export function rssSampler(pid: number): { start(): void; stop(): MemorySample } {
  let samples: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  const read = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) samples.push(Number(match[1]) / 1024);
    } catch {
      // the process is gone; the scenario will fail on its own
    }
  };
  return {
    start() {
      samples = [];
      read();
      timer = setInterval(read, 100);
    },
    stop() {
      clearInterval(timer);
      read();
      return { maxMb: Math.max(...samples), meanMb: samples.reduce((a, b) => a + b, 0) / samples.length };
    },
  };
}

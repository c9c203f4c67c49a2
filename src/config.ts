// One validated, frozen configuration object. Nothing else reads process.env, so every setting is
// listed here, checked at boot, and a bad value stops the start with a message naming it.
import { isIP } from 'node:net';

export type DatabaseConfig =
  | { readonly dialect: 'sqlite'; readonly file: string }
  | { readonly dialect: 'postgres'; readonly url: string };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly publicUrl: string;
  readonly problemBaseUrl: string;
  readonly logLevel: string;
  readonly smtpUrl: string | undefined;
  readonly production: boolean;
  /**
   * Requests per minute per API key (or per client address on the public shop), across every process on
   * the database; 0 turns the limit off.
   */
  readonly rateLimitPerMinute: number;
  /** Failed sign-ins (401) per minute per client address before its keyed requests get 429; 0: no limit. */
  readonly authFailureLimitPerMinute: number;
  /**
   * Which peers may say who the client is (X-Forwarded-For): false (none: the client is the peer), a hop
   * count (trust that many proxies in front of us), or the proxies' addresses and CIDR ranges.
   */
  readonly trustProxy: false | number | readonly string[];
  /** How long a client may take to send a whole request (headers and body) before a 408. */
  readonly requestTimeoutSeconds: number;
  /** On SIGTERM/SIGINT, how long requests under way may take to finish before their connections are closed. */
  readonly shutdownTimeoutSeconds: number;
  /** The sender of the e-mails slotbook sends on an operator's behalf (the operator's name is shown with it). */
  readonly emailFrom: string;
  /** How long an item in an online-shop basket holds its seats. */
  readonly basketHoldMinutes: number;
  /** How long seats offered to a waitlisted customer stay held for them. */
  readonly waitlistClaimMinutes: number;
  /**
   * The master secret for HMAC fingerprints and sealed secrets (src/secrets/); unset, a random one is kept
   * in the database. Production should set it, so that a copy of the database alone does not hold it.
   */
  readonly secretKey: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const port = integerSetting(env, 'PORT', 3000, 0, 65535);
  const publicUrl = urlSetting(env, 'PUBLIC_URL') ?? `http://localhost:${port}`;
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://; got "${smtpUrl}"`);
  }
  return Object.freeze({
    port,
    host: env.HOST || '127.0.0.1',
    database: parseDatabaseUrl(env.DATABASE_URL),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    problemBaseUrl: (urlSetting(env, 'PROBLEM_BASE_URL') ?? `${publicUrl.replace(/\/+$/, '')}/problems`).replace(/\/+$/, ''),
    logLevel,
    smtpUrl,
    production: env.NODE_ENV === 'production',
    rateLimitPerMinute: integerSetting(env, 'RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
    authFailureLimitPerMinute: integerSetting(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 30, 0, 1_000_000),
    trustProxy: trustProxySetting(env, 'TRUST_PROXY'),
    requestTimeoutSeconds: integerSetting(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600),
    shutdownTimeoutSeconds: integerSetting(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 600),
    emailFrom: emailSetting(env, 'EMAIL_FROM') ?? `no-reply@${new URL(publicUrl).hostname}`,
    basketHoldMinutes: integerSetting(env, 'BASKET_HOLD_MINUTES', 15, 1, 60),
    waitlistClaimMinutes: integerSetting(env, 'WAITLIST_CLAIM_MINUTES', 60, 1, 7 * 24 * 60),
    secretKey: secretSetting(env, 'SECRET_KEY'),
  });
}

export function parseDatabaseUrl(value: string | undefined): DatabaseConfig {
  if (value === undefined || value === '') return { dialect: 'sqlite', file: 'data/slotbook.db' };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/dev.db');
    return { dialect: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: value };
  }
  throw new ConfigError('DATABASE_URL must be sqlite:PATH or postgres://...; got an unsupported scheme');
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return Number(raw);
}

// proxy-addr's names for the private ranges, which Fastify's trustProxy also takes.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Off (unset, "false", "0"), a hop count, or a comma-separated list of addresses, CIDR ranges and range names. */
function trustProxySetting(env: Env, name: string): false | number | readonly string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > 10) throw new ConfigError(`${name} as a hop count must be from 0 to 10; got "${raw}"`);
    return Number(raw);
  }
  if (raw === 'true') {
    throw new ConfigError(`${name}=true would let any client choose its address (X-Forwarded-For); give the number of proxies in front of slotbook (e.g. 1) or their addresses`);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(`${name} must be a hop count or a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) or ${PROXY_RANGE_NAMES.join('/')}; "${entry}" is none of these`);
    }
  }
  return Object.freeze(entries);
}

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function secretSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new ConfigError(`${name} must be at least 32 random characters (e.g. openssl rand -hex 32); got ${raw.length}`);
  return raw;
}

function emailSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(raw)) throw new ConfigError(`${name} must be a plain e-mail address such as bookings@example.com; got "${raw}"`);
  return raw;
}

function urlSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL; got "${raw}"`);
  }
  return raw;
}

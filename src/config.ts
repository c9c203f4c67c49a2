// One validated, frozen configuration object. Nothing else reads process.env, so every setting is
// listed here, checked at boot, and a bad value stops the start with a message naming it.
import { dirname } from 'node:path';
import { isIP } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import ipaddr from 'ipaddr.js';

export type DatabaseConfig = { readonly dialect: 'sqlite'; readonly file: string } | { readonly dialect: 'postgres'; readonly url: string };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  /** Where slotbook keeps files of its own (the first start's demo keys). */
  readonly dataDir: string;
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
  /** How long an item in an online-shop basket holds its seats while the guest is still choosing. */
  readonly basketHoldMinutes: number;
  /** How long a basket's seats stay held once the guest begins checkout (within holdMaxLifetimeMinutes). */
  readonly checkoutHoldMinutes: number;
  /** No hold made by a client (partner, OCTo, shop) is extended beyond this many minutes after it was made. */
  readonly holdMaxLifetimeMinutes: number;
  /** Seats one shop basket may hold at once. */
  readonly shopMaxSeatsPerBasket: number;
  /** Seats one client address may hold at once in one operator's shop, over all its baskets. */
  readonly shopMaxHeldSeatsPerClient: number;
  /** Baskets one client address may open in one operator's shop per hour. */
  readonly shopMaxBasketsPerClientHour: number;
  /** How long seats offered to a waitlisted customer stay held for them. */
  readonly waitlistClaimMinutes: number;
  /** How long a new waitlist place waits for its address to be confirmed before it lapses. */
  readonly waitlistConfirmHours: number;
  /** Waitlist places (unconfirmed, waiting or offered) one client address may have at once in one operator's shop. */
  readonly waitlistMaxPlacesPerClient: number;
  /**
   * The master secret for HMAC fingerprints and sealed secrets (src/secrets/). Required in production, so
   * that a copy of the database alone does not hold it; unset outside production, a random one is kept in
   * the database.
   */
  readonly secretKey: string | undefined;
  /** Quotas and lifetime of waiver uploads (docs/security/hygiene.md). */
  readonly uploads: UploadLimits;
  /**
   * Networks (CIDRs) that the operator's own webhook endpoints may reach although they are private, loopback
   * or otherwise special-purpose; everything special-purpose is refused otherwise, in every environment
   * (docs/webhooks.md).
   */
  readonly webhookAllowedNetworks: readonly string[];
  /** The same for marketplaces' endpoints (their ota key chooses the URL): none unless listed here. */
  readonly webhookAllowedNetworksForPartners: readonly string[];
  /**
   * Where the Stripe SDK sends its requests (protocol, host and port; default Stripe's own API). Tests point
   * it at a local Stripe-compatible server; nothing else should change it (docs/payments.md).
   */
  readonly stripeApiBase: string;
  /** How long a GetYourGuide reservation holds its seats (GYG's cart time), unless the connection overrides it. */
  readonly gygHoldMinutes: number;
  /** GetYourGuide's supplier API, where availability updates are pushed (docs/channels/getyourguide.md). */
  readonly gygApiUrl: string;
  /**
   * How long a Viator reservation holds its seats and price. Viator asks for at least 15 minutes: shorter
   * only for tests (docs/channels/viator.md).
   */
  readonly viatorHoldMinutes: number;
  /** Viator's API, where event notifications are posted (docs/channels/viator.md). */
  readonly viatorApiUrl: string;
  /**
   * Days after a guest's last activity (a booking made or attended, a waitlist place or basket opened) at
   * which their personal data is erased (docs/privacy.md); undefined: never (the default).
   */
  readonly guestRetentionDays: number | undefined;
  /** Metrics, traces, log format and overload limits (docs/observability.md). */
  readonly observability: ObservabilityConfig;
}

export interface ObservabilityConfig {
  /** Prometheus's /metrics on a port of its own (never the public one); undefined: no metrics at all. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** OTLP/HTTP collector (traces go to `${endpoint}/v1/traces`); undefined: no tracing, nothing of it loaded. */
  readonly otlpEndpoint: string | undefined;
  readonly serviceName: string;
  /** The share of traces that our own requests and jobs start (OTEL_TRACES_SAMPLER_ARG, 0 to 1). */
  readonly traceSampleRatio: number;
  /** pino-pretty for a person at a terminal, JSON lines for a log collector. */
  readonly logFormat: 'pretty' | 'json';
  /** Above this event-loop delay (ms) requests are refused with 503 and Retry-After; 0: no such check. */
  readonly maxEventLoopDelayMs: number;
  /** Above this V8 heap use (bytes) the same (default 90% of V8's heap limit); 0: no such check. */
  readonly maxHeapUsedBytes: number;
  /** Above this resident memory (bytes) the same; 0: no such check. */
  readonly maxRssBytes: number;
}

export interface UploadLimits {
  /** Files and bytes an API key may hold that no confirmed booking uses yet (a hold's files count). */
  readonly perKey: { readonly files: number; readonly bytes: number };
  /** Files and bytes one shop basket may upload. */
  readonly perBasket: { readonly files: number; readonly bytes: number };
  /** Files and bytes the shop's guests at one client address may hold that no confirmed booking uses yet. */
  readonly perAddress: { readonly files: number; readonly bytes: number };
  /** How long an upload that no confirmed booking uses is kept, from its upload or its last hold's expiry. */
  readonly unattachedHours: number;
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
  const database = parseDatabaseUrl(env.DATABASE_URL);
  const production = env.NODE_ENV === 'production';
  const secretKey = secretSetting(env, 'SECRET_KEY');
  if (production && secretKey === undefined) {
    throw new ConfigError(
      'SECRET_KEY is required in production: without it the master secret is kept in the database, and a copy of the database would open ' +
        'the secrets it seals. Make one with `openssl rand -base64 32` and give every process of the instance the same one',
    );
  }
  return Object.freeze({
    port,
    host: env.HOST || '127.0.0.1',
    database,
    dataDir: env.DATA_DIR || (database.dialect === 'sqlite' ? dirname(database.file) : 'data'),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    problemBaseUrl: (urlSetting(env, 'PROBLEM_BASE_URL') ?? `${publicUrl.replace(/\/+$/, '')}/problems`).replace(/\/+$/, ''),
    logLevel,
    smtpUrl,
    production,
    rateLimitPerMinute: integerSetting(env, 'RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
    authFailureLimitPerMinute: integerSetting(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 30, 0, 1_000_000),
    trustProxy: trustProxySetting(env, 'TRUST_PROXY'),
    requestTimeoutSeconds: integerSetting(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600),
    shutdownTimeoutSeconds: integerSetting(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 600),
    emailFrom: emailSetting(env, 'EMAIL_FROM') ?? `no-reply@${new URL(publicUrl).hostname}`,
    basketHoldMinutes: integerSetting(env, 'BASKET_HOLD_MINUTES', 10, 1, 60),
    checkoutHoldMinutes: integerSetting(env, 'CHECKOUT_HOLD_MINUTES', 20, 1, 60),
    // At least the longest first hold any channel may ask for (60 minutes), so that the cap only limits renewals.
    holdMaxLifetimeMinutes: integerSetting(env, 'HOLD_MAX_LIFETIME_MINUTES', 60, 60, 24 * 60),
    shopMaxSeatsPerBasket: integerSetting(env, 'SHOP_MAX_SEATS_PER_BASKET', 20, 1, 10_000),
    shopMaxHeldSeatsPerClient: integerSetting(env, 'SHOP_MAX_HELD_SEATS_PER_CLIENT', 30, 1, 100_000),
    shopMaxBasketsPerClientHour: integerSetting(env, 'SHOP_MAX_BASKETS_PER_CLIENT_HOUR', 30, 1, 100_000),
    waitlistClaimMinutes: integerSetting(env, 'WAITLIST_CLAIM_MINUTES', 60, 1, 7 * 24 * 60),
    waitlistConfirmHours: integerSetting(env, 'WAITLIST_CONFIRM_HOURS', 24, 1, 7 * 24),
    waitlistMaxPlacesPerClient: integerSetting(env, 'WAITLIST_MAX_PLACES_PER_CLIENT', 10, 1, 10_000),
    secretKey,
    uploads: Object.freeze({
      perKey: quota(env, 'UPLOAD_KEY', 500, 500),
      perBasket: quota(env, 'UPLOAD_BASKET', 20, 50),
      perAddress: quota(env, 'UPLOAD_ADDRESS', 50, 100),
      unattachedHours: integerSetting(env, 'UPLOAD_UNATTACHED_HOURS', 24, 1, 24 * 30),
    }),
    webhookAllowedNetworks: networksSetting(env, 'WEBHOOK_ALLOWED_NETWORKS'),
    webhookAllowedNetworksForPartners: networksSetting(env, 'WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS'),
    stripeApiBase: stripeApiBaseSetting(env),
    gygHoldMinutes: integerSetting(env, 'GYG_HOLD_MINUTES', 60, 1, 24 * 60),
    gygApiUrl: (urlSetting(env, 'GYG_API_URL') ?? 'https://supplier-api.getyourguide.com').replace(/\/+$/, ''),
    // Viator holds for at least 15 minutes; a shorter hold is for tests only, so production refuses it.
    viatorHoldMinutes: integerSetting(env, 'VIATOR_HOLD_MINUTES', 30, production ? 15 : 1, 24 * 60),
    viatorApiUrl: (urlSetting(env, 'VIATOR_API_URL') ?? 'https://api.viator.com').replace(/\/+$/, ''),
    guestRetentionDays: env.GUEST_RETENTION_DAYS ? integerSetting(env, 'GUEST_RETENTION_DAYS', 0, 1, 36_500) : undefined,
    observability: observabilitySettings(env, port),
  });
}

function observabilitySettings(env: Env, port: number): ObservabilityConfig {
  const metricsPort = env.METRICS_PORT ? integerSetting(env, 'METRICS_PORT', 0, 1, 65535) : undefined;
  // Metrics say how busy the service is and how many bookings it takes: never on the public port.
  if (metricsPort !== undefined && metricsPort === port)
    throw new ConfigError(`METRICS_PORT must differ from PORT (${port}): metrics are not public`);
  const logFormat = env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError(`LOG_FORMAT must be pretty or json; got "${logFormat}"`);
  return Object.freeze({
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    otlpEndpoint: urlSetting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')?.replace(/\/+$/, ''),
    serviceName: env.OTEL_SERVICE_NAME || 'slotbook',
    traceSampleRatio: ratioSetting(env, 'OTEL_TRACES_SAMPLER_ARG', 1),
    logFormat,
    maxEventLoopDelayMs: integerSetting(env, 'OVERLOAD_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    // By default near V8's own limit, where the process would otherwise end in an out-of-memory crash.
    maxHeapUsedBytes: env.OVERLOAD_HEAP_USED_MB
      ? integerSetting(env, 'OVERLOAD_HEAP_USED_MB', 0, 0, 1_000_000) * MIB
      : Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    maxRssBytes: integerSetting(env, 'OVERLOAD_RSS_MB', 0, 0, 1_000_000) * MIB,
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

function ratioSetting(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || value > 1) throw new ConfigError(`${name} must be a number from 0 to 1; got "${raw}"`);
  return value;
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}"`);
  }
  return Number(raw);
}

const MIB = 1024 * 1024;

/** `<prefix>_MAX_FILES` and `<prefix>_MAX_MB`. */
function quota(env: Env, prefix: string, files: number, megabytes: number): { files: number; bytes: number } {
  return Object.freeze({
    files: integerSetting(env, `${prefix}_MAX_FILES`, files, 1, 1_000_000),
    bytes: integerSetting(env, `${prefix}_MAX_MB`, megabytes, 1, 1_000_000) * MIB,
  });
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
    throw new ConfigError(
      `${name}=true would let any client choose its address (X-Forwarded-For); give the number of proxies in front of slotbook (e.g. 1) or their addresses`,
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(
        `${name} must be a hop count or a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) or ${PROXY_RANGE_NAMES.join('/')}; "${entry}" is none of these`,
      );
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

/** CIDRs (10.0.0.0/8, fd00::/8) or single addresses, separated by commas or spaces. */
function networksSetting(env: Env, name: string): readonly string[] {
  const list = (env[name] ?? '').split(/[\s,]+/).filter((item) => item !== '');
  for (const item of list) {
    const valid = item.includes('/') ? ipaddr.isValidCIDR(item) : ipaddr.isValid(item);
    if (!valid) throw new ConfigError(`${name} must list networks such as 10.0.0.0/8 or fd00::/8, separated by commas; "${item}" is not one`);
  }
  return Object.freeze(list);
}

function secretSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 32) throw new ConfigError(`${name} must be at least 32 random characters (e.g. openssl rand -base64 32); got ${raw.length}`);
  return raw;
}

function emailSetting(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(raw))
    throw new ConfigError(`${name} must be a plain e-mail address such as bookings@example.com; got "${raw}"`);
  return raw;
}

/** An origin only (the SDK takes protocol, host and port; a path would be silently dropped). */
function stripeApiBaseSetting(env: Env): string {
  const raw = urlSetting(env, 'STRIPE_API_BASE') ?? 'https://api.stripe.com';
  const url = new URL(raw);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`STRIPE_API_BASE must be an origin such as https://api.stripe.com, without a path; got "${raw}"`);
  }
  return url.origin;
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

// Password hashing with scrypt (Node's built-in crypto, memory-hard). N=2^15, r=8, p=3 is one of OWASP's
// equivalent scrypt settings: 32 MiB and a few hundred milliseconds per hash, on libuv's thread pool (the
// event loop stays free). The settings are stored with each hash, so they can be raised later: a hash with
// older settings is replaced at the next successful sign-in.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ValidationFailed } from '../../http/errors.js';

const PARAMS = { N: 2 ** 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * options.N! * options.r! + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$`);
}

// Spent on sign-in attempts for addresses that have no account, so that they take as long as real ones.
let decoy: Promise<string> | undefined;
export async function spendDecoyHash(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}

/** The password rules (NIST 800-63B: length, not composition), named after the body field. */
export function checkNewPassword(password: string, field = 'Password', email?: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw ValidationFailed.field(field, `${field} must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw ValidationFailed.field(field, `${field} must be at most ${MAX_PASSWORD_LENGTH} characters`);
  if (email && password.toLowerCase().includes(email.split('@')[0]!.toLowerCase()) && email.split('@')[0]!.length >= 4) {
    throw ValidationFailed.field(field, `${field} must not contain your e-mail address`);
  }
}

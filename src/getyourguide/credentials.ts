// The inbound HTTP Basic credentials GetYourGuide calls slotbook with. Both parts are random: the user
// name (unique over the instance) names the connection, the password is 192 random bits of which only a
// SHA-256 is kept and compared in constant time. A fast hash is right for a random secret, as for API keys.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const LETTERS = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface NewCredentials {
  username: string;
  password: string;
  passwordHash: string;
}

export function generateCredentials(): NewCredentials {
  let suffix = '';
  for (let i = 0; i < 16; i++) suffix += LETTERS[randomInt(LETTERS.length)];
  const password = randomBytes(24).toString('base64url');
  return { username: `gyg_${suffix}`, password, passwordHash: hashPassword(password) };
}

export function passwordMatches(password: string, storedHash: string): boolean {
  const given = Buffer.from(hashPassword(password), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function hashPassword(password: string): string {
  return createHash('sha256').update(password).digest('hex');
}

/** The user name and password of an `Authorization: Basic ...` header, if it is one. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// TOTP two-factor authentication (RFC 6238, 30-second steps, 6 digits, SHA-1: what every authenticator app
// reads from a QR code) with the otpauth library. The secret is sealed with the instance key. A code is
// accepted within one step either side of now, and never twice: the step it matched is remembered, so a
// code seen over someone's shoulder cannot be replayed. Ten recovery codes, stored as SHA-256, each once.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import type { InstanceKeys } from '../../secrets/keys.js';
import { hashToken, type UserRow } from './store.js';

const PURPOSE = 'staff-totp';
const PERIOD = 30;

function totpOf(secretBase32: string, label = 'slotbook'): TOTP {
  return new TOTP({ issuer: 'slotbook', label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpEnrolment(keys: InstanceKeys, email: string, operatorName: string) {
  const secret = new Secret({ size: 20 }).base32;
  const uri = totpOf(secret, `${operatorName} (${email})`).toString();
  return { secret, uri, qrSvg: renderSVG(uri), sealed: keys.seal(PURPOSE, secret) };
}

/** The time step the code matches (within one step of now) and that is newer than the last one used, else undefined. */
export function matchTotp(keys: InstanceKeys, sealedSecret: string, code: string, lastStep: number | null, now = Date.now()): number | undefined {
  const delta = totpOf(keys.open(PURPOSE, sealedSecret)).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** Ten codes like `k3f9-2hq7-x8pd`, and their hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string } {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'; // 32 characters: no modulo bias
  const codes = Array.from({ length: 10 }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
  return { codes, hashes: JSON.stringify(codes.map((code) => hashToken(code))) };
}

/** The remaining hashes once `code` is used, or undefined when it is not one of the user's unused codes. */
export function useRecoveryCode(user: UserRow, code: string): string | undefined {
  const hashes = JSON.parse(user.recovery_codes) as string[];
  const hash = hashToken(code.trim().toLowerCase());
  if (!hashes.includes(hash)) return undefined;
  return JSON.stringify(hashes.filter((h) => h !== hash));
}

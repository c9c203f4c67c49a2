// Public identifiers: random, so that nothing can be guessed from them or from each other.
import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Booking references are read aloud and typed by people: no 0/O or 1/I.
const UNAMBIGUOUS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** An ActivityID: `s_` and 16 letters or digits (about 95 bits). */
export const newActivityId = (): string => `s_${randomString(ALPHANUMERIC, 16)}`;

/** A booking reference such as BK-7KQ2MX9P (40 bits; uniqueness is enforced by the database). */
export const newBookingReference = (): string => `BK-${randomString(UNAMBIGUOUS, 8)}`;

/** An upload's FileID: `f_` and 24 letters or digits. */
export const newFileId = (): string => `f_${randomString(ALPHANUMERIC, 24)}`;

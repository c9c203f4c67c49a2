// The one rule for an e-mail address slotbook writes to, whatever brought it in (the partner API, the
// shop, the desk, OCTo, GetYourGuide, a staff account): exactly one address, no display name, no list,
// at most 254 characters, in the form of ajv-formats' "email" format. The request schemas check their
// `format: 'email'` with this same function (http/validation.ts registers it), so a channel that checks
// an address by hand (GetYourGuide's travellers) refuses what the partner API answers 422 for, and the
// mailer refuses any recipient that is not one such address.
import { fullFormats } from 'ajv-formats/dist/formats.js';

export const EMAIL_MAX_LENGTH = 254;

const FORM = fullFormats.email as RegExp;

export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && FORM.test(text);
}

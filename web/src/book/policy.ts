// The activity's cancellation and refund policy in the guest's words, shown before they pay (the activity's
// page and the basket): until when they may cancel online and what each moment gives back. The sentences
// are the ones the guest's confirmation e-mail states (src/lib/guest-messages.ts).
import { policySentences as sentences } from '../../../src/lib/guest-messages';
import type { Activity } from './api';
import { t } from './app';

/** The policy's sentences: whether and until when they may cancel, then what they get back. */
export function policySentences(policy: Activity['GuestCancellation']): string[] {
  return sentences(t, policy);
}

// The e-mails of staff accounts (sign-in links, password resets, invitations, notices) go through the outbox like
// every e-mail (src/emails): queued in the transaction that made their token, sent by the worker. Their
// body carries a one-time link, so it is stored sealed (src/secrets) and the outbox listing never shows
// it; the worker opens it just before sending.
import type { Config } from '../../config.js';
import type { Tx } from '../../db/connection.js';
import type { InstanceKeys } from '../../secrets/keys.js';
import { queueEmail } from '../../emails/outbox.js';
import { operatorName } from '../../operators/service.js';
import type { UserRow } from './store.js';
import { unixNow } from '../../lib/clock.js';

const PURPOSE = 'staff-email';

/** What composing a staff e-mail needs: the service's address and the key that seals the body (a FastifyInstance has both). */
export interface Mailing {
  config: Pick<Config, 'publicUrl'>;
  instanceKeys: InstanceKeys;
}
export const HIDDEN_BODY = '(hidden: this e-mail carries a one-time link for a staff account)';

export function openStaffEmailBody(keys: InstanceKeys, sealed: string): string {
  return keys.open(PURPOSE, sealed);
}

export type StaffEmailKind = 'sign-in-link' | 'password-reset' | 'invitation' | 'locked' | 'totp-reset';

/** The dashboard page an e-mailed token opens. */
export function linkFor(app: Mailing, kind: 'sign-in-link' | 'password-reset' | 'invitation', token: string): string {
  const page = { 'sign-in-link': 'sign-in/link', 'password-reset': 'reset-password', invitation: 'accept-invitation' }[kind];
  return `${app.config.publicUrl}/${page}#token=${token}`;
}

const TEXTS: Record<StaffEmailKind, (operator: string, link: string) => { subject: string; body: string }> = {
  'sign-in-link': (operator, link) => ({
    subject: `Your sign-in link for ${operator}`,
    body: `Open this link within 15 minutes to sign in to the ${operator} dashboard on slotbook:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this e-mail.`,
  }),
  'password-reset': (operator, link) => ({
    subject: `Reset your ${operator} password`,
    body: `Open this link within an hour to choose a new password for the ${operator} dashboard on slotbook:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
  }),
  invitation: (operator, link) => ({
    subject: `You are invited to the ${operator} dashboard`,
    body: `You have been invited to the ${operator} dashboard on slotbook. Open this link within 7 days to choose your password and sign in:\n\n${link}\n\nIt works once.`,
  }),
  locked: (operator) => ({
    subject: `Your ${operator} account is locked for 15 minutes`,
    body: `Someone entered a wrong password or code for your ${operator} dashboard account several times, so it is locked for 15 minutes.\n\nIf it was not you, reset your password once the lock has passed.`,
  }),
  'totp-reset': (operator) => ({
    subject: `Two-factor authentication is off for your ${operator} account`,
    body: `An owner of ${operator} turned off two-factor authentication for your dashboard account, so signing in asks only for your password now.\n\nSet it up again under My account. If you did not ask for this, tell an owner of ${operator} at once.`,
  }),
};

export async function queueStaffEmail(tx: Tx, app: Mailing, user: UserRow, kind: StaffEmailKind, link = ''): Promise<void> {
  const { subject, body } = TEXTS[kind](await operatorName(tx, user.operator_id), link);
  await queueEmail(tx, {
    operatorId: user.operator_id,
    kind: 'staff',
    to: user.email,
    subject,
    body: app.instanceKeys.seal(PURPOSE, body),
    sendAt: unixNow(),
    meter: null,
    meterExtraInfo: null,
  });
}

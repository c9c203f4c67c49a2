// The operator's own Stripe account: its secret (or restricted) key and its webhook signing secret.
// Saving checks the key with Stripe first (one harmless read), outside any transaction; both secrets are
// then sealed with the instance's keys and never shown again. Every change writes an audit entry, which
// names the key's last 4 characters only.
import type { Db } from '../../../db/connection.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { NotFound, ValidationFailed } from '../../../http/errors.js';
import type { InstanceKeys } from '../../../secrets/keys.js';
import { audit } from '../../../audit/log.js';
import { PaymentProviderUnavailable } from '../provider.js';
import { deleteStripeAccount, findStripeAccount, saveStripeAccount } from '../../store.js';
import { failureOf, SECRET_KEY_PURPOSE, stripeClient, verifyAccount, WEBHOOK_SECRET_PURPOSE, type StripeSettings } from './gateway.js';
import { stripeAccountView } from '../../view.js';
import type { ConnectStripeBody, StripeAccountSettings } from '../../schemas.js';

export type AccountSettings = StripeSettings & { publicUrl: string };

/** Where Stripe must send the operator's events (the operator adds it in Stripe's dashboard). */
export const stripeWebhookUrl = (publicUrl: string, operatorId: number): string => `${publicUrl}/api/v2/payments/stripe/${operatorId}/webhook`;

export async function getStripeAccount(db: Kysely<Database>, settings: AccountSettings, operatorId: number): Promise<StripeAccountSettings> {
  return stripeAccountView(await findStripeAccount(db, operatorId), stripeWebhookUrl(settings.publicUrl, operatorId));
}

const liveKey = (key: string): boolean => /^(sk|rk)_live_/.test(key);

export async function connectStripeAccount(
  db: Db,
  keys: InstanceKeys,
  settings: AccountSettings,
  operatorId: number,
  body: ConnectStripeBody,
): Promise<StripeAccountSettings> {
  let accountId: string | null;
  try {
    ({ accountId } = await verifyAccount(stripeClient(settings, body.SecretKey)));
  } catch (error) {
    const failure = failureOf(error);
    if (failure === 'unavailable')
      throw new PaymentProviderUnavailable('Stripe could not be reached to check the key; nothing was saved. Try again in a moment.');
    throw ValidationFailed.field(
      'SecretKey',
      failure === 'refused'
        ? 'Stripe refused this key: it is unknown, revoked, or (a restricted key) may not read the account or its balance'
        : 'Stripe did not accept this key',
    );
  }
  const lastFour = body.SecretKey.slice(-4);
  await db.write(async (tx) => {
    const before = await findStripeAccount(tx, operatorId);
    await saveStripeAccount(tx, {
      operator_id: operatorId,
      secret_key_sealed: keys.seal(SECRET_KEY_PURPOSE, body.SecretKey),
      webhook_secret_sealed: keys.seal(WEBHOOK_SECRET_PURPOSE, body.WebhookSecret),
      key_last4: lastFour,
      live_mode: liveKey(body.SecretKey) ? 1 : 0,
      account_id: accountId,
    });
    await audit(tx, {
      operatorId,
      action: before ? 'stripe.replace' : 'stripe.connect',
      resource: { type: 'stripe-account', id: operatorId },
      ...(before && { before: { KeyLast4: before.key_last4, AccountID: before.account_id } }),
      after: { KeyLast4: lastFour, AccountID: accountId, Mode: liveKey(body.SecretKey) ? 'live' : 'test' },
    });
  });
  return getStripeAccount(db.kysely, settings, operatorId);
}

export async function disconnectStripeAccount(db: Db, settings: AccountSettings, operatorId: number): Promise<StripeAccountSettings> {
  await db.write(async (tx) => {
    const before = await findStripeAccount(tx, operatorId);
    if (!before || !(await deleteStripeAccount(tx, operatorId))) throw new NotFound('No Stripe account is connected');
    await audit(tx, {
      operatorId,
      action: 'stripe.disconnect',
      resource: { type: 'stripe-account', id: operatorId },
      before: { KeyLast4: before.key_last4, AccountID: before.account_id },
    });
  });
  return getStripeAccount(db.kysely, settings, operatorId);
}

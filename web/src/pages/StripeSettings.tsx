// The operator's Stripe account on the settings page (src/payments, docs/payments.md): connect it with a
// secret or restricted key and the webhook's signing secret (checked with Stripe on save, never shown
// again), replace them, or disconnect. Owners only (payments:manage); the page hides it from others.
import { useState, type FormEvent } from 'react';
import { api, type ApiError, request } from '../api';
import type { Schemas } from '../api-types';
import { Card, ErrorBanner, TextField, useLoad, useToast } from '../ui';

const STRIPE = '/api/v2/admin/settings/stripe';

/** GET/PUT /api/v2/admin/settings/stripe. */
type StripeAccountSettings = Schemas['StripeAccountSettings'];

/** `onChange`: the account was connected, replaced or disconnected (the shop's provider may have changed). */
export function StripeCard({ onChange }: { onChange: () => void }) {
  const toast = useToast();
  const account = useLoad((signal) => api.get<StripeAccountSettings>(STRIPE, undefined, signal), []);
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function connect(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await request<StripeAccountSettings>('PUT', STRIPE, {
        body: { SecretKey: secretKey.trim(), WebhookSecret: webhookSecret.trim() },
      });
      account.setData(saved);
      // The secrets leave the page once saved: the service keeps them sealed and never answers them.
      setSecretKey('');
      setWebhookSecret('');
      onChange();
      toast(saved.Mode === 'live' ? 'Stripe is connected: your shop takes real payments.' : 'Stripe is connected in test mode: no real money moves.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  async function disconnect() {
    setBusy(true);
    setError(undefined);
    try {
      await api.del(STRIPE);
      account.reload();
      onChange();
      toast('Stripe is disconnected.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const data = account.data;
  const other = error && !error.fieldError('SecretKey') && !error.fieldError('WebhookSecret') ? error : undefined;
  return (
    <Card title="Payments with Stripe">
      {data && (
        // Long ids and the webhook address wrap on a phone rather than widen the page.
        <div className="stack" style={{ overflowWrap: 'anywhere' }}>
          {data.Connected ? (
            <p>
              Connected
              {data.AccountID ? (
                <>
                  {' '}
                  to account <code>{data.AccountID}</code>
                </>
              ) : null}{' '}
              with the key ending in <code>{data.KeyLast4}</code>,{' '}
              {data.Mode === 'live' ? 'in live mode: guests pay real money.' : "in Stripe's test mode: no real money moves, and your pages say so."}
            </p>
          ) : (
            <p>
              Connect your own Stripe account to take payments: guests pay on Stripe&rsquo;s secure page, the money goes to your account, and bookings
              are confirmed when Stripe tells us the payment succeeded.
            </p>
          )}
          <p className="muted">
            In Stripe&rsquo;s dashboard, add a webhook endpoint at <code>{data.WebhookURL}</code> for the events checkout.session.completed,
            checkout.session.async_payment_succeeded and checkout.session.expired, the refund events (refund.created, refund.updated, refund.failed,
            charge.refunded) and the dispute events (charge.dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated), then paste its
            signing secret here.
          </p>
          <form className="stack" onSubmit={connect} noValidate aria-label={data.Connected ? 'Replace the Stripe keys' : 'Connect Stripe'}>
            <TextField
              label="Secret key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={secretKey}
              onChange={(e) => setSecretKey(e.target.value)}
              placeholder="sk_live_… or rk_live_…"
              hint="A secret key, or a restricted key that may write Checkout Sessions and Refunds and read the balance. Checked with Stripe when you save."
              error={error?.fieldError('SecretKey')}
              required
            />
            <TextField
              label="Webhook signing secret"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={webhookSecret}
              onChange={(e) => setWebhookSecret(e.target.value)}
              placeholder="whsec_…"
              error={error?.fieldError('WebhookSecret')}
              required
            />
            <ErrorBanner error={other} />
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={busy || secretKey === '' || webhookSecret === ''}>
                {busy ? 'Checking with Stripe…' : data.Connected ? 'Replace keys' : 'Connect Stripe'}
              </button>
              {data.Connected && (
                <button type="button" className="btn" disabled={busy} onClick={() => void disconnect()}>
                  Disconnect
                </button>
              )}
            </div>
          </form>
        </div>
      )}
      <ErrorBanner error={account.error} />
    </Card>
  );
}

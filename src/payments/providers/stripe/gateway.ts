// The Stripe gateway: every call slotbook makes to Stripe, one function each, through the official SDK
// with the operator's own key. The SDK's host, port and protocol come from STRIPE_API_BASE (tests point it
// at their local Stripe-compatible server). Calls are never made inside a database transaction: a slow
// Stripe must not hold a connection or a lock. Nothing here logs a key, a secret or a guest's details.
import Stripe from 'stripe';
import { traceOutbound, tracing } from '../../../lib/tracing.js';
import type { Config } from '../../../config.js';
import type { InstanceKeys } from '../../../secrets/keys.js';
import type { StripeAccountRow } from '../../store.js';
import { PaymentProviderRefused, PaymentProviderUnavailable } from '../provider.js';

export type CheckoutSession = Stripe.Checkout.Session;
export type StripeEvent = Stripe.Event;

/** Purposes of the instance keys that seal the account's secrets (src/secrets/keys.ts). */
export const SECRET_KEY_PURPOSE = 'stripe-secret-key';
export const WEBHOOK_SECRET_PURPOSE = 'stripe-webhook-secret';

export type StripeSettings = Pick<Config, 'stripeApiBase'>;

/** A client for one operator's key; `maxNetworkRetries` makes the SDK retry with the same Idempotency-Key. */
export function stripeClient(settings: StripeSettings, secretKey: string): Stripe {
  const base = new URL(settings.stripeApiBase);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: base.hostname,
    port: base.port === '' ? (protocol === 'http' ? 80 : 443) : Number(base.port),
    protocol,
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'slotbook' },
    ...(tracing() && { httpClient: tracedHttpClient() }),
  });
}

/**
 * The SDK's own Node client, each request in a span of its own (tracing on only): method and path, never
 * the body (a guest's e-mail address goes to Checkout) nor the key.
 */
function tracedHttpClient(): Stripe.HttpClient {
  const inner = Stripe.createNodeHttpClient();
  return {
    getClientName: () => inner.getClientName(),
    makeRequest: (host, port, path, method, headers, requestData, protocol, timeout) =>
      traceOutbound(
        `Stripe ${method} ${path.split('?')[0]}`,
        { 'server.address': host, 'http.request.method': method, 'url.path': path.split('?')[0]! },
        async (span) => {
          const response = await inner.makeRequest(host, port, path, method, { ...headers, ...span.headers }, requestData, protocol, timeout);
          span.annotate({ 'http.response.status_code': response.getStatusCode() });
          return response;
        },
      ),
  };
}

/** The operator's connected account's client (its key opened from the seal). */
export function accountClient(settings: StripeSettings, keys: InstanceKeys, account: StripeAccountRow): Stripe {
  return stripeClient(settings, keys.open(SECRET_KEY_PURPOSE, account.secret_key_sealed));
}

/** Why a call failed, in the words slotbook needs: the key is refused, or Stripe is unavailable now. */
export type StripeFailure = 'refused' | 'unavailable' | 'invalid';

export function failureOf(error: unknown): StripeFailure {
  const type = (error as { type?: string }).type;
  if (type === 'StripeAuthenticationError' || type === 'StripePermissionError') return 'refused';
  if (type === 'StripeInvalidRequestError' || type === 'StripeIdempotencyError' || type === 'StripeCardError') return 'invalid';
  return 'unavailable';
}

/** What Stripe said of a refused request, for the server log: its codes and message, never a key or a guest. */
export function stripeReason(error: unknown): Record<string, unknown> {
  const raw = error as { type?: string; code?: string; statusCode?: number; message?: string; requestId?: string; param?: string };
  return {
    stripeType: raw.type,
    stripeCode: raw.code,
    stripeStatus: raw.statusCode,
    stripeMessage: raw.message,
    stripeParam: raw.param,
    stripeRequestId: raw.requestId,
  };
}

/**
 * The error a guest is answered when Stripe would not start a payment (a Checkout Session): a refused key or
 * a refused request (4xx: retrying cannot help; Stripe's reason goes to the log) is told apart from Stripe
 * being unreachable or failing (5xx, a timeout: try again in a moment).
 */
export function paymentStartFailure(error: unknown, whileHeld: string): PaymentProviderRefused | PaymentProviderUnavailable {
  const failure = failureOf(error);
  if (failure === 'refused')
    return new PaymentProviderRefused(
      "The shop's Stripe account refused the payment; nothing was charged. The shop's owner must check its Stripe settings.",
      stripeReason(error),
    );
  if (failure === 'invalid')
    return new PaymentProviderRefused(
      "Stripe refused to start this payment; nothing was charged. Trying again will not help: the shop's owner must check its Stripe settings.",
      stripeReason(error),
    );
  return new PaymentProviderUnavailable(`Stripe could not start the payment; nothing was charged${whileHeld}. Try again in a moment.`);
}

/**
 * Checks a key with one harmless read: the account it belongs to, or (a restricted key that may not read
 * the account) its balance. Answers the account's id when it could be read.
 */
export async function verifyAccount(client: Stripe): Promise<{ accountId: string | null }> {
  try {
    const account = await client.accounts.retrieveCurrent();
    return { accountId: account.id };
  } catch (error) {
    if ((error as { type?: string }).type !== 'StripePermissionError') throw error;
    await client.balance.retrieve();
    return { accountId: null };
  }
}

export type CheckoutSessionRequest = Stripe.Checkout.SessionCreateParams;

/** A Checkout Session; a retry with the same idempotency key answers the same session (Stripe keeps keys 24 h). */
export async function createCheckoutSession(client: Stripe, request: CheckoutSessionRequest, idempotencyKey: string): Promise<CheckoutSession> {
  return client.checkout.sessions.create(request, { idempotencyKey });
}

export async function retrieveCheckoutSession(client: Stripe, sessionId: string): Promise<CheckoutSession> {
  return client.checkout.sessions.retrieve(sessionId);
}

/**
 * Refunds a payment, in full or `amount` (minor units) of it; the idempotency key (from slotbook's payment
 * or refund id) makes a retry refund it once.
 */
export async function createRefund(
  client: Stripe,
  refund: { paymentIntent: string; amount?: number; reason: Stripe.RefundCreateParams.Reason; metadata: Record<string, string> },
  idempotencyKey: string,
): Promise<Stripe.Refund> {
  return client.refunds.create(
    {
      payment_intent: refund.paymentIntent,
      ...(refund.amount !== undefined && { amount: refund.amount }),
      reason: refund.reason,
      metadata: refund.metadata,
    },
    { idempotencyKey },
  );
}

/**
 * The event Stripe signed with the operator's webhook secret, or an error when the signature is missing,
 * forged, made with another secret or older than five minutes (Stripe's default tolerance).
 */
export function verifyWebhookEvent(rawBody: Buffer, signature: string | undefined, webhookSecret: string): StripeEvent {
  if (signature === undefined || signature === '')
    throw new Stripe.errors.StripeSignatureVerificationError('', rawBody.toString('utf8'), { message: 'No Stripe-Signature header' });
  return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
}

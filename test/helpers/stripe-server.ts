// A local Stripe-compatible server for the tests: no test talks to the internet. It answers the
// form-encoded requests the official SDK sends (bracket notation: line_items[0][price_data][currency]),
// checks the bearer key, honours Idempotency-Key, and keeps in memory the objects slotbook uses (Checkout
// Sessions, PaymentIntents, Refunds, Disputes) with Stripe's shapes and documented status changes. A
// session's `url` is its payment page here (GET /pay/{id}: "Pay" and "Decline"); paying completes the
// session and sends checkout.session.completed, signed the way Stripe signs (the SDK's
// generateTestHeaderString), to the webhook address the account was given. Tests may also send any event
// themselves: again, forged, or signed with another account's secret.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { unixNow } from '../../src/lib/clock.js';

type Json = Record<string, unknown>;

export interface StripeTestAccount {
  /** sk_test_... or rk_test_...; requests with any other key are 401. */
  secretKey: string;
  webhookSecret: string;
  accountId: string;
  /** Where this account's events go (an operator's /api/v2/payments/stripe/{id}/webhook). */
  webhookUrl?: string;
  /** A restricted key that may not read the account (403), only the balance. */
  restricted?: boolean;
}

export interface Delivery {
  url: string;
  payload: string;
  signature: string;
  status: number;
  body: string;
}

/** How an event reaches the app: over HTTP by default; HTTP tests hand it to app.inject instead. */
export type Deliver = (url: string, payload: string, headers: Record<string, string>) => Promise<{ status: number; body: string }>;

const httpDeliver: Deliver = async (url, payload, headers) => {
  const response = await fetch(url, { method: 'POST', body: payload, headers });
  return { status: response.status, body: await response.text() };
};

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => unixNow();

/** Stripe's form encoding back into objects: a[b][0][c]=v; objects whose keys are all indexes become arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.replace(/\]/g, '').split('[');
    let node: Json = root;
    path.forEach((key, index) => {
      if (index === path.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Json;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Stripe's minimum charges of the currencies the tests use (minor units): a session below is refused. */
const MINIMUM_CHARGES: Record<string, number> = { eur: 50, usd: 50, gbp: 30, jpy: 50 };

export class StripeTestServer {
  readonly sessions = new Map<string, Json>();
  readonly paymentIntents = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  readonly disputes = new Map<string, Json>();
  /** Every event sent, with the app's answer. */
  readonly deliveries: Delivery[] = [];
  /** Every API request: method, path and key (tests count what slotbook asked). */
  readonly requests: { method: string; path: string; key: string; idempotencyKey: string | undefined }[] = [];
  private readonly accounts = new Map<string, StripeTestAccount>();
  private readonly sessionAccount = new Map<string, StripeTestAccount>();
  private readonly idempotent = new Map<string, { body: string; status: number; answer: string }>();
  private server!: Server;
  private readonly inFlight: Promise<unknown>[] = [];
  /** Requests to answer with an error before answering again: path prefix -> how many, and as what. */
  private readonly outages = new Map<string, { left: number; status: number }>();
  base = '';
  deliver: Deliver = httpDeliver;
  /** The status a new refund gets: a card's is succeeded at once; `pending` for a refund Stripe confirms later by event. */
  refundStatus: 'succeeded' | 'pending' | 'failed' = 'succeeded';

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A new test-mode account with its keys; `webhookUrl` may be set later (once the operator exists). */
  addAccount(options: Partial<StripeTestAccount> = {}): StripeTestAccount {
    const account: StripeTestAccount = {
      secretKey: options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`,
      webhookSecret: options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`,
      accountId: options.accountId ?? `acct_${randomBytes(8).toString('hex')}`,
      ...(options.webhookUrl !== undefined && { webhookUrl: options.webhookUrl }),
      ...(options.restricted !== undefined && { restricted: options.restricted }),
    };
    this.accounts.set(account.secretKey, account);
    return account;
  }

  /**
   * The next `times` API requests whose path starts with `pathPrefix` fail as Stripe's own errors do: 500
   * (`api_error`, Stripe failing), or 400 (`invalid_request_error`: Stripe refusing the request).
   */
  failNext(pathPrefix: string, times: number, status: 500 | 400 = 500): void {
    this.outages.set(pathPrefix, { left: times, status });
  }

  /** Waits for the events that the payment page sent. */
  async settled(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  // ---- what a guest or Stripe does ----

  /** The guest pays on the payment page: the session completes and checkout.session.completed is sent. */
  async pay(sessionId: string, options: { send?: boolean } = {}): Promise<Json> {
    const session = this.requireSession(sessionId);
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}`);
    const intent: Json = {
      id: id('pi'),
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: session.amount_total,
      currency: session.currency,
      status: 'succeeded',
      latest_charge: id('ch'),
      metadata: (session.payment_intent_data as Json | undefined)?.metadata ?? {},
      created: now(),
      livemode: false,
    };
    this.paymentIntents.set(intent.id as string, intent);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    const event = this.event('checkout.session.completed', session);
    if (options.send !== false) await this.send(this.sessionAccount.get(sessionId)!, event);
    return event;
  }

  /** The session lapses unpaid: checkout.session.expired is sent. */
  async expire(sessionId: string, options: { send?: boolean } = {}): Promise<Json> {
    const session = this.requireSession(sessionId);
    Object.assign(session, { status: 'expired' });
    const event = this.event('checkout.session.expired', session);
    if (options.send !== false) await this.send(this.sessionAccount.get(sessionId)!, event);
    return event;
  }

  /** The cardholder disputes a payment: charge.dispute.created. */
  async dispute(paymentIntentId: string, options: { send?: boolean } = {}): Promise<Json> {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`no payment intent ${paymentIntentId}`);
    const dispute: Json = {
      id: id('dp'),
      object: 'dispute',
      amount: intent.amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
      created: now(),
      livemode: false,
    };
    this.disputes.set(dispute.id as string, dispute);
    const event = this.event('charge.dispute.created', dispute);
    const account = this.accountOfIntent(paymentIntentId);
    if (options.send !== false && account) await this.send(account, event);
    return event;
  }

  /**
   * Stripe moves a dispute on: evidence under review (charge.dispute.updated), or decided
   * (charge.dispute.closed, `won` or `lost`); the event is sent to the payment's account.
   */
  async changeDispute(disputeId: string, status: string, options: { send?: boolean } = {}): Promise<Json> {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    Object.assign(dispute, { status });
    if (status !== 'needs_response' && status !== 'warning_needs_response') {
      Object.assign(dispute.evidence_details as Json, { has_evidence: true, submission_count: 1 });
    }
    const event = this.event(status === 'won' || status === 'lost' ? 'charge.dispute.closed' : 'charge.dispute.updated', dispute);
    const account = this.accountOfIntent(dispute.payment_intent as string);
    if (options.send !== false && account) await this.send(account, event);
    return event;
  }

  private accountOfIntent(paymentIntentId: string): StripeTestAccount | undefined {
    return [...this.sessionAccount.entries()].find(([sessionId]) => this.sessions.get(sessionId)?.payment_intent === paymentIntentId)?.[1];
  }

  /** A Stripe event object around `object`, as Stripe sends it. */
  event(type: string, object: Json): Json {
    return {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /**
   * Sends an event to the account's webhook address, signed with its secret (or `secret`, or the literal
   * `signature` header for a forged one). Answers the app's status and body.
   */
  async send(
    account: StripeTestAccount,
    event: Json,
    options: { secret?: string; signature?: string; url?: string } = {},
  ): Promise<{ status: number; body: string }> {
    const url = options.url ?? account.webhookUrl;
    if (!url) throw new Error('the account has no webhook address');
    const payload = JSON.stringify(event);
    const signature = options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? account.webhookSecret });
    const answer = await this.deliver(url, payload, { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature });
    this.deliveries.push({ url, payload, signature, ...answer });
    return answer;
  }

  requireSession(sessionId: string): Json {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    return session;
  }

  // ---- the HTTP side ----

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.base);
    try {
      if (url.pathname.startsWith('/pay/')) return await this.paymentPage(request.method ?? 'GET', url, body, response);
      const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const account = this.accounts.get(key);
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      this.requests.push({ method: request.method ?? 'GET', path: url.pathname, key, idempotencyKey });
      for (const [prefix, outage] of this.outages) {
        if (outage.left > 0 && url.pathname.startsWith(prefix)) {
          this.outages.set(prefix, { ...outage, left: outage.left - 1 });
          if (outage.status === 400)
            throw new StripeHttpError(400, 'invalid_request_error', 'This account cannot accept payments', undefined, 'account_invalid');
          throw new StripeHttpError(500, 'api_error', 'An unknown error occurred');
        }
      }
      if (!account) {
        throw new StripeHttpError(
          401,
          'invalid_request_error',
          `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
        );
      }
      // Stripe's idempotency: a key answers its first response again, and refuses other parameters.
      const memoKey = idempotencyKey === undefined || request.method !== 'POST' ? undefined : `${key} ${idempotencyKey}`;
      const memo = memoKey === undefined ? undefined : this.idempotent.get(memoKey);
      if (memo) {
        if (memo.body !== `${url.pathname}?${body}`) {
          throw new StripeHttpError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          );
        }
        response.writeHead(memo.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(memo.answer);
        return;
      }
      const answer = JSON.stringify(this.route(request.method ?? 'GET', url.pathname, parseStripeForm(body), account));
      if (memoKey !== undefined) this.idempotent.set(memoKey, { body: `${url.pathname}?${body}`, status: 200, answer });
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': id('req') }).end(answer);
    } catch (error) {
      if (!(error instanceof StripeHttpError)) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
        return;
      }
      response.writeHead(error.status, { 'content-type': 'application/json', 'request-id': id('req') }).end(
        JSON.stringify({
          error: { type: error.type, message: error.message, ...(error.param && { param: error.param }), ...(error.code && { code: error.code }) },
        }),
      );
    }
  }

  private route(method: string, path: string, params: Json, account: StripeTestAccount): Json {
    const [, version, resource, objectId, action] = path.split('/');
    if (version !== 'v1') throw new StripeHttpError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
    if (method === 'GET' && resource === 'account' && objectId === undefined) {
      if (account.restricted)
        throw new StripeHttpError(403, 'invalid_request_error', 'The provided key does not have the required permissions for this endpoint');
      return { id: account.accountId, object: 'account', charges_enabled: true, country: 'DE', default_currency: 'eur' };
    }
    if (method === 'GET' && resource === 'balance') return { object: 'balance', available: [], pending: [], livemode: false };
    if (resource === 'checkout' && objectId === 'sessions') {
      const [, , , , sessionId, verb] = path.split('/');
      if (method === 'POST' && sessionId === undefined) return this.createSession(params, account);
      const session = this.ownSession(sessionId ?? '', account);
      if (method === 'GET' && verb === undefined) return session;
      if (method === 'POST' && verb === 'expire') {
        if (session.status !== 'open') throw new StripeHttpError(400, 'invalid_request_error', 'Only open sessions can be expired');
        return Object.assign(session, { status: 'expired' });
      }
    }
    if (resource === 'payment_intents' && method === 'GET' && objectId) {
      const intent = this.paymentIntents.get(objectId);
      if (!intent) throw new StripeHttpError(404, 'invalid_request_error', `No such payment_intent: '${objectId}'`, 'id');
      return intent;
    }
    if (resource === 'refunds' && method === 'POST' && objectId === undefined) return this.createRefund(params);
    if (resource === 'refunds' && method === 'GET' && objectId) {
      const refund = this.refunds.get(objectId);
      if (!refund) throw new StripeHttpError(404, 'invalid_request_error', `No such refund: '${objectId}'`, 'id');
      return refund;
    }
    if (resource === 'disputes' && method === 'GET' && objectId) {
      const dispute = this.disputes.get(objectId);
      if (!dispute) throw new StripeHttpError(404, 'invalid_request_error', `No such dispute: '${objectId}'`, 'id');
      return dispute;
    }
    void action;
    throw new StripeHttpError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  private ownSession(sessionId: string, account: StripeTestAccount): Json {
    const session = this.sessions.get(sessionId);
    if (!session || this.sessionAccount.get(sessionId) !== account) {
      throw new StripeHttpError(404, 'invalid_request_error', `No such checkout.session: '${sessionId}'`, 'id');
    }
    return session;
  }

  /** The checks Stripe makes that slotbook relies on: payment mode, priced lines, one currency, the expiry window. */
  private createSession(params: Json, account: StripeTestAccount): Json {
    if (params.mode !== 'payment') throw new StripeHttpError(400, 'invalid_request_error', 'Only mode=payment is kept here', 'mode');
    const lines = (params.line_items ?? []) as Json[];
    if (!Array.isArray(lines) || lines.length === 0) throw new StripeHttpError(400, 'invalid_request_error', 'line_items is required', 'line_items');
    const currencies = new Set(lines.map((line) => (line.price_data as Json | undefined)?.currency));
    if (currencies.size !== 1) throw new StripeHttpError(400, 'invalid_request_error', 'All line items must be in one currency', 'line_items');
    let amount = 0;
    lines.forEach((line, index) => {
      const unit = Number((line.price_data as Json).unit_amount);
      if (!Number.isInteger(unit) || unit < 0)
        throw new StripeHttpError(400, 'invalid_request_error', 'Invalid integer', `line_items[${index}][price_data][unit_amount]`);
      amount += unit * Number(line.quantity ?? 1);
    });
    if (amount <= 0) throw new StripeHttpError(400, 'invalid_request_error', 'The Checkout Session total must be greater than 0', 'line_items');
    const least = MINIMUM_CHARGES[String([...currencies][0])] ?? 1;
    if (amount < least)
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        `The Checkout Session's total amount due must add up to at least ${least}`,
        undefined,
        'amount_too_small',
      );
    const expiresAt = params.expires_at === undefined ? now() + 86_400 : Number(params.expires_at);
    if (expiresAt < now() + 30 * 60 - 5 || expiresAt > now() + 24 * 3600) {
      throw new StripeHttpError(
        400,
        'invalid_request_error',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
    for (const field of ['success_url', 'cancel_url'] as const) {
      if (typeof params[field] !== 'string' || !/^https?:\/\//.test(params[field] as string)) {
        throw new StripeHttpError(400, 'invalid_request_error', `Not a valid URL`, field);
      }
    }
    const sessionId = `cs_test_${randomBytes(20).toString('hex')}`;
    const session: Json = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: amount,
      amount_total: amount,
      currency: [...currencies][0],
      client_reference_id: params.client_reference_id ?? null,
      customer_email: params.customer_email ?? null,
      metadata: params.metadata ?? {},
      payment_intent: null,
      payment_intent_data: params.payment_intent_data ?? null,
      line_items_sent: lines,
      expires_at: expiresAt,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      url: `${this.base}/pay/${sessionId}`,
      created: now(),
      livemode: false,
    };
    this.sessions.set(sessionId, session);
    this.sessionAccount.set(sessionId, account);
    return session;
  }

  /** A refund of a succeeded PaymentIntent, in full or `amount` of it (Stripe refunds a card at once: succeeded). */
  private createRefund(params: Json): Json {
    const intent = this.paymentIntents.get(String(params.payment_intent));
    if (!intent)
      throw new StripeHttpError(400, 'invalid_request_error', `No such payment_intent: '${String(params.payment_intent)}'`, 'payment_intent');
    const refunded = [...this.refunds.values()].filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + Number(r.amount), 0);
    const amount = params.amount === undefined ? Number(intent.amount) - refunded : Number(params.amount);
    if (amount <= 0 || refunded + amount > Number(intent.amount)) {
      throw new StripeHttpError(400, 'invalid_request_error', `Charge ${String(intent.latest_charge)} has already been refunded.`, 'amount');
    }
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      reason: params.reason ?? null,
      metadata: params.metadata ?? {},
      status: this.refundStatus,
      created: now(),
    };
    this.refunds.set(refund.id as string, refund);
    return refund;
  }

  /** The session's payment page: what Stripe's hosted Checkout is to the guest, in its simplest accessible form. */
  private async paymentPage(method: string, url: URL, body: string, response: ServerResponse): Promise<void> {
    const sessionId = url.pathname.slice('/pay/'.length);
    const session = this.sessions.get(sessionId);
    const page = (status: number, title: string, content: string): void => {
      response
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${content}</main></body></html>`,
        );
    };
    if (!session) return page(404, 'No such payment', '<p>This payment page does not exist.</p>');
    const amount = `${(Number(session.amount_total) / (String(session.currency) === 'jpy' ? 1 : 100)).toFixed(String(session.currency) === 'jpy' ? 0 : 2)} ${String(session.currency).toUpperCase()}`;
    if (method === 'POST') {
      const action = new URLSearchParams(body).get('action');
      if (action === 'pay' && session.status === 'open') {
        // As Stripe does, the event goes out on its own: the guest may be back before it arrives.
        this.inFlight.push(this.pay(sessionId).then(() => undefined));
        const back = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId);
        response.writeHead(303, { location: back }).end();
        return;
      }
      if (action === 'decline') {
        return page(
          402,
          'Payment declined',
          `<p role="alert">Your card was declined. Nothing was charged.</p><p><a href="/pay/${sessionId}">Try again</a> or <a href="${String(session.cancel_url)}">go back to the shop</a>.</p>`,
        );
      }
    }
    if (session.status !== 'open') return page(410, 'This payment page has expired', `<p>The session is ${String(session.status)}.</p>`);
    return page(
      200,
      `Pay ${amount}`,
      `<p>Test payment page of the local Stripe server. No card is needed.</p>
<form method="post"><input type="hidden" name="action" value="pay"><button type="submit">Pay</button></form>
<form method="post"><input type="hidden" name="action" value="decline"><button type="submit">Decline</button></form>
<p><a href="${String(session.cancel_url)}">Back to the shop</a></p>`,
    );
  }
}

export async function startStripeServer(): Promise<StripeTestServer> {
  return new StripeTestServer().start();
}

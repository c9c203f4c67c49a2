// Delivery: Standard Webhooks signatures (verified with `standardwebhooks`), retries after errors and
// timeouts with exponential back-off and jitter, then success; what is recorded of an answer (code, time,
// a capped body), and no redirect followed; order per endpoint and resource; listing. Time is driven
// through `now`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS, retryDelay, runDueDeliveries } from '../../src/webhooks/deliveries/deliver.js';
import { deliveryDeps, nowSeconds, oneEndpoint } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { addSeconds, type UnixSeconds } from '../../src/lib/clock.js';

let t: TestApp;
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
const receivers: Receiver[] = [];
const setup = (eventTypes?: string[]) => oneEndpoint(t, receivers, eventTypes);

const deps = () => deliveryDeps(t);
const run = (now: UnixSeconds, extra = {}) => runDueDeliveries(t.db, { ...deps(), ...extra }, now);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  for (const receiver of receivers) await receiver.close();
});

describe('signatures', () => {
  it('each request carries webhook-id, webhook-timestamp and a v1 signature that standardwebhooks verifies', async () => {
    const s = await setup(['booking.created']);
    const reference = await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    expect(await run(now)).toMatchObject({ delivered: 1 });
    const [request] = s.receiver.received;
    expect(request!.verifiedWith).toEqual([s.endpoint.Secret]);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(request!.event.id);
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - nowSeconds())).toBeLessThanOrEqual(5);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request!.event).toMatchObject({ type: 'booking.created', data: { BookingReference: reference } });
    // A tampered body fails verification (the receiver's check is real).
    const { Webhook } = await import('standardwebhooks');
    expect(() => new Webhook(s.endpoint.Secret).verify(request!.body.replace(reference, 'BK-AAAAAAAA'), request!.headers)).toThrow();
  });
});

describe('retries', () => {
  it('after 500s, with back-off, then success; same webhook-id on every attempt; the endpoint is failing meanwhile', async () => {
    const s = await setup(['booking.created']);
    s.receiver.answer = (_request, index) => (index < 2 ? { status: 500, body: 'oops' } : 204);
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    expect(await run(now)).toMatchObject({ retrying: 1 });
    let [delivery] = await s.deliveries();
    expect(delivery).toMatchObject({ Status: 'pending', Attempts: 1, LastStatusCode: 500, LastError: 'HTTP 500' });
    // random 0.5: no jitter, exactly the schedule.
    expect(Date.parse(delivery!.NextAttemptAt!) / 1000).toBe(addSeconds(now, RETRY_DELAYS[0]));
    expect((await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}`)).json().data.FailingSince).not.toBeNull();

    expect(await run(addSeconds(now, RETRY_DELAYS[0] - 1))).toMatchObject({ delivered: 0, retrying: 0 });
    expect(await run(addSeconds(now, RETRY_DELAYS[0]))).toMatchObject({ retrying: 1 });
    expect(await run(addSeconds(now, RETRY_DELAYS[0] + RETRY_DELAYS[1]))).toMatchObject({ delivered: 1 });
    [delivery] = await s.deliveries();
    expect(delivery).toMatchObject({ Status: 'delivered', Attempts: 3, LastStatusCode: 204, LastError: null, NextAttemptAt: null });
    expect(new Set(s.receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(s.receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);

    const detail = (await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${delivery!.ID}`)).json().data;
    expect(detail.AttemptLog.map((a: { StatusCode: number; ResponseBody: string | null }) => [a.StatusCode, a.ResponseBody])).toEqual([
      [500, 'oops'],
      [500, 'oops'],
      [204, null],
    ]);
    expect(detail.Event).toEqual(s.receiver.received[2]!.event);
    const endpoint = (await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}`)).json().data;
    expect(endpoint).toMatchObject({ FailingSince: null, Status: 'enabled' });
    expect(endpoint.LastSuccessAt).not.toBeNull();
  });

  it('after a timeout (no answer within the limit), then success', async () => {
    const s = await setup(['booking.created']);
    s.receiver.answer = (_request, index) => (index === 0 ? 'hang' : 200);
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    expect(await run(now, { timeoutMs: 300 })).toMatchObject({ retrying: 1 });
    const [failed] = await s.deliveries();
    expect(failed).toMatchObject({ Status: 'pending', LastStatusCode: null, LastError: 'Timed out after 300 ms' });
    expect(failed!.LastDurationMs).toBeGreaterThanOrEqual(290);
    expect(await run(addSeconds(now, RETRY_DELAYS[0]), { timeoutMs: 300 })).toMatchObject({ delivered: 1 });
    expect((await s.deliveries())[0]).toMatchObject({ Status: 'delivered', Attempts: 2, LastStatusCode: 200 });
  });

  it('the schedule spans about three days in 11 attempts, each delay jittered by up to 20%', () => {
    expect(MAX_ATTEMPTS).toBe(11);
    const total = RETRY_DELAYS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 86_400).toBeGreaterThan(2.8);
    expect(total / 86_400).toBeLessThan(3.2);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const base = RETRY_DELAYS[attempt - 1]!;
      expect(retryDelay(attempt, () => 0)).toBe(Math.max(1, Math.round(base * (1 - JITTER))));
      expect(retryDelay(attempt, () => 1)).toBe(Math.round(base * (1 + JITTER)));
      if (attempt > 1) expect(retryDelay(attempt, () => 0.5)!).toBeGreaterThanOrEqual(retryDelay(attempt - 1, () => 0.5)!);
    }
    expect(retryDelay(MAX_ATTEMPTS)).toBeUndefined();
  });

  it('a redirect is a failed attempt, not followed; a long answer is recorded capped', async () => {
    const s = await setup(['booking.created']);
    const elsewhere = await startReceiver();
    receivers.push(elsewhere);
    s.receiver.answer = (_request, index) =>
      index === 0 ? { status: 307, headers: { location: elsewhere.url } } : { status: 200, body: 'x'.repeat(20_000) };
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    expect((await s.deliveries())[0]).toMatchObject({ Status: 'pending', LastStatusCode: 307, LastError: 'HTTP 307: redirects are not followed' });
    expect(elsewhere.received).toHaveLength(0);
    await run(addSeconds(now, RETRY_DELAYS[0]));
    const [delivery] = await s.deliveries();
    const detail = (await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${delivery!.ID}`)).json().data;
    expect(detail.Status).toBe('delivered');
    expect(detail.AttemptLog[1].ResponseBody).toHaveLength(4096);
  });
});

describe('order per endpoint and resource', () => {
  it("a booking's later events wait for its earlier one; other bookings go on meanwhile", async () => {
    const s = await setup();
    let failFirst = true;
    s.receiver.answer = (request) => {
      if (failFirst && request.event.type === 'booking.created' && request.event.data.Customer.FirstName === 'Ada') {
        failFirst = false;
        return 503;
      }
      return 204;
    };
    const first = await s.book();
    expect((await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/bookings/${first}/cancel`)).statusCode).toBe(200);
    const second = (
      await call(t.app, s.op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: s.activityId,
        Date: s.slot.Date,
        Time: s.slot.Time,
        Participants: 1,
        Customer: { ...customer, FirstName: 'Bob' },
      })
    ).json().data.BookingReference;
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    const seen = () => s.receiver.received.map((r) => `${r.event.data.BookingReference === first ? 'first' : 'second'} ${r.event.type}`);
    // The first booking's created failed: its confirmed and cancelled wait; the second's went.
    expect(seen()).toEqual(['first booking.created', 'second booking.created', 'second booking.confirmed']);
    expect((await s.deliveries('?Status=pending')).map((d) => d.EventType).sort()).toEqual([
      'booking.cancelled',
      'booking.confirmed',
      'booking.created',
    ]);
    await run(addSeconds(now, RETRY_DELAYS[0]));
    expect(seen().slice(3)).toEqual(['first booking.created', 'first booking.confirmed', 'first booking.cancelled']);
    expect(second).toMatch(/^BK-/);
  });
});

describe('listing deliveries', () => {
  it("newest first, filtered by status and event type; another operator's are not found", async () => {
    const s = await setup();
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    expect((await s.deliveries()).map((d) => d.EventType)).toEqual(['booking.confirmed', 'booking.created']);
    expect((await s.deliveries('?EventType=booking.created')).map((d) => d.EventType)).toEqual(['booking.created']);
    expect(await s.deliveries('?Status=failed')).toEqual([]);
    expect(await s.deliveries('?Limit=1&Offset=1')).toHaveLength(1);
    problemOf(await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries?Status=lost`), 422, 'validation');
    const other = await t.newOperator();
    const [delivery] = await s.deliveries();
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${delivery!.ID}`), 404, 'not-found');
    problemOf(
      await call(t.app, other.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${delivery!.ID}/replay`),
      404,
      'not-found',
    );
  });
});

// The delivery queue as a multi-tenant service needs it: one slow endpoint fills only its own lane (another
// operator's deliveries, even a chain of them that must go in order, pass it by); deliveries that wait behind
// a failed one of their resource are made due no earlier than its retry, so that they stay out of the claim's
// way; and the worker keeps delivering while the server is busy, at its share, and at full speed otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { MAX_ATTEMPTS, RETRY_DELAYS, runDueDeliveries } from '../../src/webhooks/deliveries/deliver.js';
import { restAfter, startWebhookWorker } from '../../src/webhooks/deliveries/worker.js';
import { deliveryDeps, nowSeconds, oneEndpoint, type Setup } from './fixtures.js';
import type { Receiver } from './receiver.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: TestApp;
const receivers: Receiver[] = [];
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  for (const receiver of receivers) await receiver.close();
});

async function bookMany(s: Setup, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await call(t.app, s.op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: s.activityId,
      Date: s.slot.Date,
      Time: s.slot.Time,
      Participants: 1,
      Customer: { ...customer, FirstName: `Guest${i}` },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

describe('lanes', () => {
  it("a slow endpoint holds back only its own deliveries: another operator's ordered chain goes at once", async () => {
    const slow = await oneEndpoint(t, receivers, ['booking.created']);
    slow.receiver.answer = () => ({ status: 204, delayMs: 1_500 });
    const fast = await oneEndpoint(t, receivers, ['booking.created', 'booking.confirmed']);
    await bookMany(slow, 40);
    await bookMany(fast, 3);
    const now = nowSeconds();
    await dispatchEvents(t.db, now);

    const started = Date.now();
    const running = runDueDeliveries(t.db, deliveryDeps(t), now);
    // Each of the fast endpoint's confirmations may only go once its creation is settled: the chain
    // completes while the slow endpoint's first answers are still on their way (1.5 s each).
    await fast.receiver.waitFor(6, 5_000);
    const fastDone = Date.now() - started;
    expect(fastDone).toBeLessThan(1_200);
    expect(fast.receiver.received.map((r) => r.event.type).filter((type) => type === 'booking.confirmed')).toHaveLength(3);
    expect(await running).toMatchObject({ delivered: 46, retrying: 0 });
    expect(slow.receiver.received).toHaveLength(40);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000); // two rounds of at most 32 at once
  });
});

describe('waiting behind a failed delivery', () => {
  it('later deliveries of the resource are due no earlier than its retry, whether made before or after it failed', async () => {
    const s = await oneEndpoint(t, receivers, ['booking.created', 'booking.confirmed', 'booking.cancelled']);
    let failed = false;
    s.receiver.answer = (request) => {
      if (!failed && request.event.type === 'booking.created') {
        failed = true;
        return 500;
      }
      return 204;
    };
    const reference = await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    expect(await runDueDeliveries(t.db, deliveryDeps(t), now)).toMatchObject({ retrying: 1, delivered: 0 });
    // Cancelled after the failure: its delivery is made behind the one that waits.
    expect((await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/cancel`)).statusCode).toBe(200);
    await dispatchEvents(t.db, now);
    const pending = await s.deliveries('?Status=pending');
    expect(pending.map((d) => d.EventType).sort()).toEqual(['booking.cancelled', 'booking.confirmed', 'booking.created']);
    const retryAt = new Date(addSeconds(now, RETRY_DELAYS[0]) * 1000).toISOString();
    expect(pending.map((d) => d.NextAttemptAt)).toEqual([retryAt, retryAt, retryAt]);

    expect(await runDueDeliveries(t.db, deliveryDeps(t), addSeconds(now, RETRY_DELAYS[0] - 1))).toMatchObject({ delivered: 0, retrying: 0 });
    expect(await runDueDeliveries(t.db, deliveryDeps(t), addSeconds(now, RETRY_DELAYS[0]))).toMatchObject({ delivered: 3 });
    expect(s.receiver.received.map((r) => r.event.type)).toEqual(['booking.created', 'booking.created', 'booking.confirmed', 'booking.cancelled']);
  });
});

describe('an attempt that fails before any answer', () => {
  it('is retried like a refused one, and given up after the last attempt instead of being retried for ever', async () => {
    const s = await oneEndpoint(t, receivers, ['booking.created']);
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    // A signing secret that cannot be opened: signing throws before anything is sent.
    await t.db.kysely.updateTable('webhook_endpoints').set({ secret_sealed: 'v1.not-a-sealed-secret' }).where('id', '=', s.endpoint.ID).execute();
    expect(await runDueDeliveries(t.db, deliveryDeps(t), now)).toMatchObject({ retrying: 1, failed: 0 });
    await t.db.kysely
      .updateTable('webhook_deliveries')
      .set({ attempts: MAX_ATTEMPTS - 1, next_attempt_at: now })
      .where('endpoint_id', '=', s.endpoint.ID)
      .execute();
    expect(await runDueDeliveries(t.db, deliveryDeps(t), now)).toMatchObject({ retrying: 0, failed: 1 });
    const [failed] = await s.deliveries('?Status=failed');
    expect(failed).toMatchObject({ Attempts: MAX_ATTEMPTS, LastStatusCode: null });
    expect(failed!.LastError).toMatch(/^Error: /);
    expect(s.receiver.received).toHaveLength(0);
  });
});

describe('the worker', () => {
  it('rests after each step: not at all while there is work and no busy request, a twentieth of the time while busy, a second when idle', () => {
    const step = { worked: true, busy: true };
    expect(restAfter({ ...step, busy: false, tookMs: 400 })).toBe(0);
    expect(restAfter({ ...step, tookMs: 20 })).toBe(380);
    expect(restAfter({ ...step, tookMs: 1 })).toBe(50);
    expect(restAfter({ ...step, tookMs: 5_000 })).toBe(2_000);
    expect(restAfter({ ...step, worked: false, tookMs: 5 })).toBe(1_000);
    expect(restAfter({ ...step, worked: false, busy: false, tookMs: 5 })).toBe(1_000);
  });

  it('takes no step while requests keep the process busy, and delivers everything once they let up', async () => {
    const s = await oneEndpoint(t, receivers, ['booking.created']);
    await bookMany(s, 30);
    let busy = true;
    const gauge = { load: () => (busy ? 50 : 0) };
    const stop = startWebhookWorker(t.db, t.app.webhooks.transport, t.app.instanceKeys, t.app.log, gauge);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(s.receiver.received).toHaveLength(0);
      busy = false;
      await s.receiver.waitFor(30, 20_000);
    } finally {
      await stop();
    }
    expect(new Set(s.receiver.received.map((r) => r.event.id)).size).toBe(30);
  });

  for (const load of [0, 50]) {
    it(`delivers everything with ${load} requests in flight on average (${load ? 'busy past the wait: small steps' : 'idle: full speed'})`, async () => {
      const s = await oneEndpoint(t, receivers, ['booking.created']);
      await bookMany(s, 30);
      const gauge = { load: () => load };
      const stop = startWebhookWorker(t.db, t.app.webhooks.transport, t.app.instanceKeys, t.app.log, gauge, { deferMs: 500 });
      try {
        await s.receiver.waitFor(30, 20_000);
      } finally {
        await stop();
      }
      expect(new Set(s.receiver.received.map((r) => r.event.id)).size).toBe(30);
      expect((await s.deliveries('?Status=delivered&Limit=100')).length).toBe(30);
    });
  }
});

// An endpoint's life: disabled automatically after days of failures (the operator e-mailed, enabling it
// resumes), not when flaky; replay; secret rotation (two signatures for 24 hours); test events. Time is
// driven through `now`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp } from '../helpers/app.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { MAX_ATTEMPTS, RETRY_DELAYS, runDueDeliveries } from '../../src/webhooks/deliveries/deliver.js';
import { deliveryDeps, nowSeconds, oneEndpoint } from './fixtures.js';
import type { Receiver } from './receiver.js';
import { addMillis, addSeconds, nowMillis, type UnixSeconds } from '../../src/lib/clock.js';

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

describe('automatic disabling', () => {
  it('an endpoint failing for days is disabled when a delivery gives up; the operator is e-mailed; enabling it resumes', async () => {
    const s = await setup(['booking.created']);
    expect((await call(t.app, s.op.adminKey, 'PATCH', '/api/v2/admin/webhooks/settings', { ContactEmail: 'ops@example.com' })).json().data).toEqual({
      ContactEmail: 'ops@example.com',
    });
    s.receiver.answer = () => 500;
    await s.book();
    let now = nowSeconds();
    await dispatchEvents(t.db, now);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const report = await run(now);
      expect(report.retrying + report.failed, `attempt ${attempt}`).toBe(1);
      now = addSeconds(now, RETRY_DELAYS[attempt - 1] ?? 0);
    }
    expect(s.receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect((await s.deliveries())[0]).toMatchObject({ Status: 'failed', Attempts: MAX_ATTEMPTS, NextAttemptAt: null });
    const endpoint = (await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}`)).json().data;
    expect(endpoint).toMatchObject({ Status: 'disabled', DisabledReason: 'failing' });
    // The operator's e-mails other than the guest's confirmation (the starter workflow's) of the booking.
    const emails = (await call(t.app, s.op.adminKey, 'GET', '/api/v2/admin/emails'))
      .json()
      .data.filter((e: { Kind: string }) => e.Kind !== 'workflow');
    expect(emails).toEqual([
      expect.objectContaining({ Kind: 'webhook', To: 'ops@example.com', Subject: 'A webhook endpoint was disabled', Status: 'queued' }),
    ]);
    expect(emails[0].Body).toContain(s.receiver.url);

    // Disabled: new events are not sent to it. Enabled again: a fresh start.
    s.receiver.clear();
    s.receiver.answer = () => 204;
    await s.book();
    await dispatchEvents(t.db, now);
    await run(now);
    expect(s.receiver.received).toHaveLength(0);
    const enabled = (await call(t.app, s.op.adminKey, 'PATCH', `/api/v2/admin/webhooks/${s.endpoint.ID}`, { Enabled: true })).json().data;
    expect(enabled).toMatchObject({ Status: 'enabled', DisabledReason: null, FailingSince: null });
    const reference = await s.book();
    await dispatchEvents(t.db, now);
    await run(now);
    expect(s.receiver.received.map((r) => r.event.data.BookingReference)).toEqual([reference]);
  });

  it('a flaky endpoint (one success among the failures) is not disabled', async () => {
    const s = await setup(['booking.created']);
    s.receiver.answer = (request) => (request.event.data.Customer.FirstName === 'Lucky' ? 204 : 500);
    await s.book();
    let now = nowSeconds();
    await dispatchEvents(t.db, now);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt === MAX_ATTEMPTS - 1) {
        await call(t.app, s.op.adminKey, 'POST', '/api/v2/admin/bookings', {
          ActivityID: s.activityId,
          Date: s.slot.Date,
          Time: s.slot.Time,
          Participants: 1,
          Customer: { ...customer, FirstName: 'Lucky' },
        });
        await dispatchEvents(t.db, now);
      }
      await run(now);
      now = addSeconds(now, RETRY_DELAYS[attempt - 1] ?? 0);
    }
    expect((await s.deliveries('?Status=failed')).length).toBe(1);
    expect((await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}`)).json().data.Status).toBe('enabled');
  });
});

describe('replay', () => {
  it('sends the event again as a new delivery with the same webhook-id', async () => {
    const s = await setup(['booking.created']);
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    const [original] = await s.deliveries();
    const replay = await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${original!.ID}/replay`);
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers.location).toBe(`/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/${replay.json().data.ID}`);
    expect(replay.json().data).toMatchObject({ Status: 'pending', ReplayOf: original!.ID, EventID: original!.EventID, Attempts: 0 });
    await run(nowSeconds());
    expect(s.receiver.received.map((r) => r.headers['webhook-id'])).toEqual([original!.EventID, original!.EventID]);
    expect(s.receiver.received[1]!.body).toBe(s.receiver.received[0]!.body);
    expect((await s.deliveries()).map((d) => d.Status)).toEqual(['delivered', 'delivered']);
    problemOf(await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/deliveries/999999/replay`), 404, 'not-found');
  });
});

describe('secret rotation', () => {
  it('the old secret signs beside the new one for 24 hours, then only the new one', async () => {
    const s = await setup(['booking.created']);
    const rotated = await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().data;
    expect(fresh.Secret).toMatch(/^whsec_/);
    expect(fresh.Secret).not.toBe(s.endpoint.Secret);
    expect(Date.parse(fresh.PreviousSecretExpiresAt) / 1000 - nowSeconds()).toBeGreaterThan(24 * 3600 - 10);
    s.receiver.secrets = [s.endpoint.Secret, fresh.Secret];
    await s.book();
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    const [during] = s.receiver.received;
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(during!.verifiedWith).toEqual([s.endpoint.Secret, fresh.Secret]);

    await s.book();
    const later = addSeconds(now, 24 * 3600 + 1);
    await dispatchEvents(t.db, later);
    await run(later);
    const after = s.receiver.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(after.verifiedWith).toEqual([fresh.Secret]);
  });
});

describe('test events', () => {
  it('sends webhook.test at once and answers the outcome; a failure is not retried and does not count against the endpoint', async () => {
    const s = await setup(['booking.created']);
    const ok = await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/test`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ Status: 'delivered', LastStatusCode: 204, Test: true, EventType: 'webhook.test', Attempts: 1 });
    expect(s.receiver.received[0]!.event).toMatchObject({ type: 'webhook.test', data: { EndpointID: s.endpoint.ID } });
    expect(s.receiver.received[0]!.verifiedWith).toHaveLength(1);

    s.receiver.answer = () => 500;
    const failed = await call(t.app, s.op.adminKey, 'POST', `/api/v2/admin/webhooks/${s.endpoint.ID}/test`);
    expect(failed.json().data).toMatchObject({ Status: 'failed', LastStatusCode: 500, NextAttemptAt: null });
    await run(addSeconds(nowSeconds(), 3600));
    expect(s.receiver.received).toHaveLength(2);
    expect((await call(t.app, s.op.adminKey, 'GET', `/api/v2/admin/webhooks/${s.endpoint.ID}`)).json().data.FailingSince).toBeNull();
  });
});

describe('retention', () => {
  it('forgets settled deliveries of events older than 30 days, with their attempts and events; keeps what is pending', async () => {
    const s = await setup(['booking.created']);
    // Ada's endpoint call fails once, then succeeds; Bea's keeps failing. Each has an earlier attempt kept.
    let adaCalls = 0;
    s.receiver.answer = (request) => (request.event.data.Customer.FirstName === 'Ada' && ++adaCalls > 1 ? 204 : 500);
    await s.book();
    await call(t.app, s.op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: s.activityId,
      Date: s.slot.Date,
      Time: s.slot.Time,
      Participants: 1,
      Customer: { ...customer, FirstName: 'Bea' },
    });
    const now = nowSeconds();
    await dispatchEvents(t.db, now);
    await run(now);
    await run(addSeconds(now, RETRY_DELAYS[0] * 2));
    const [pending, delivered] = await s.deliveries(); // newest first: Bea's is retrying
    expect([pending!.Status, delivered!.Status]).toEqual(['pending', 'delivered']);
    const attempts = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('webhook_attempts')
            .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('webhook_deliveries.endpoint_id', '=', s.endpoint.ID)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await attempts()).toBe(2);

    const { purgeOldDeliveries } = await import('../../src/webhooks/deliveries/store.js');
    await purgeOldDeliveries(t.db, addMillis(nowMillis(), -30 * 86_400_000));
    expect((await s.deliveries()).map((d) => d.ID)).toEqual([pending!.ID, delivered!.ID]);
    await purgeOldDeliveries(t.db, addMillis(nowMillis(), 1000));
    expect((await s.deliveries()).map((d) => d.ID)).toEqual([pending!.ID]);
    expect(await attempts()).toBe(1);
    const events = await t.db.kysely
      .selectFrom('webhook_events')
      .select('public_id')
      .where('public_id', 'in', [pending!.EventID, delivered!.EventID])
      .execute();
    expect(events.map((e) => e.public_id)).toEqual([pending!.EventID]);
  });
});

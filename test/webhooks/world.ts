// The world of the event tests: an app, an operator with a second marketplace's key, two real receivers
// verifying signatures with `standardwebhooks` (the operator's endpoint, subscribed to every event and to
// usage, and the marketplace viator's own endpoint, made with its ota key), an activity, and helpers to
// book and to deliver everything written so far.
import { expect } from 'vitest';
import { call, createTestApp, LOOPBACK_NETWORKS, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, type AdminTimeslot } from '../availability/fixtures.js';
import { createApiKey } from '../../src/auth/service.js';
import type { DeliveryDeps } from '../../src/webhooks/deliveries/deliver.js';
import { addEndpoint, deliveryDeps, flush, testClock, type Endpoint } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { openShopQuietly } from '../shop/fixtures.js';
import type { UnixSeconds } from '../../src/lib/clock.js';

export const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
export const contact = { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com', phoneNumber: '+15551234567', locales: ['en'] };

export const types = (receiver: Receiver) => receiver.received.map((r) => r.event.type);
export const about = (receiver: Receiver, reference: string) =>
  receiver.received.map((r) => r.event).filter((e) => e.data?.BookingReference === reference);

/** Every received request verified with the endpoint's secret. */
export function expectSigned(receiver: Receiver) {
  expect(receiver.received.length).toBeGreaterThan(0);
  for (const r of receiver.received) expect(r.verifiedWith, r.body).toHaveLength(1);
}

export interface World {
  t: TestApp;
  op: TestOperator;
  gygKey: string;
  own: Receiver;
  viator: Receiver;
  ownEndpoint: Endpoint;
  deps: DeliveryDeps;
  activityId: string;
  clock: () => UnixSeconds;
  /** Dispatches and delivers everything written so far, the clock moved past the availability window. */
  deliverAll(): Promise<unknown>;
  newSlot(Capacity?: number, Time?: string): Promise<AdminTimeslot>;
  partnerBook(
    slot: AdminTimeslot,
    body?: Record<string, unknown>,
    key?: string,
    partner?: string,
  ): Promise<{ BookingReference: string; Status: string }>;
  /** Before each test: nothing left to deliver, nothing received. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function webhookWorld(): Promise<World> {
  // The marketplace's receiver listens on loopback too, which its endpoints reach only when allowed.
  const t = await createTestApp({
    BASKET_HOLD_MINUTES: '60',
    WAITLIST_CLAIM_MINUTES: '60',
    WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: LOOPBACK_NETWORKS,
  });
  const op = await t.newOperator('Event Tours');
  // The shop is closed by default; opened in the database, so that no event or audit entry comes of it.
  await openShopQuietly(t, op.operatorId);
  const gygKey = (await t.db.write((tx) => createApiKey(tx, op.operatorId, { name: 'GYG', scopes: ['ota'], partner: 'getyourguide' }))).key;
  const own = await startReceiver();
  const viator = await startReceiver();
  const ownEndpoint = await addEndpoint(t, op.adminKey, { URL: own.url, EventTypes: ['*', 'usage.recorded'], Description: 'CRM' });
  own.secrets = [ownEndpoint.Secret];
  // The marketplace subscribes itself, with its own key.
  viator.secrets = [(await addEndpoint(t, op.otaKey, { URL: viator.url }, '/api/v2/ota/viator')).Secret];
  const deps = deliveryDeps(t);
  const activityId = (await createActivity(t, op.adminKey, { Name: 'Harbour Kayak', MaxParticipantsPerBooking: 10, UnitPrice: 2500 })).ActivityID;
  const clock = testClock();
  let day = 20;
  const deliverAll = () => flush(t, deps, clock());
  return {
    t,
    op,
    gygKey,
    own,
    viator,
    ownEndpoint,
    deps,
    activityId,
    clock,
    deliverAll,
    newSlot: (Capacity = 10, Time = '10:00') => createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(day++), Time, Capacity }),
    async partnerBook(slot, body = {}, key = op.otaKey, partner = 'viator') {
      const response = await call(t.app, key, 'POST', `/api/v2/ota/${partner}/booking`, {
        ActivityID: activityId,
        Date: slot.Date,
        Time: slot.Time,
        Participants: 2,
        Customer: customer,
        ...body,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    },
    async reset() {
      await deliverAll();
      own.clear();
      viator.clear();
    },
    async close() {
      await t.close();
      await own.close();
      await viator.close();
    },
  };
}

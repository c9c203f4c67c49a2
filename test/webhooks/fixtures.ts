// Set-up for the webhook tests: endpoints through the API, and the worker's two steps (dispatch, then
// delivery) driven directly with an explicit clock, as the e-mail tests drive theirs.
import { expect } from 'vitest';
import { call, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, type AdminTimeslot } from '../availability/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { runDueDeliveries, type DeliveryDeps } from '../../src/webhooks/deliveries/deliver.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

export const nowSeconds = () => unixNow();

export function deliveryDeps(t: TestApp, extra: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return { transport: t.app.webhooks.transport, keys: t.app.instanceKeys, workerId: 'test-worker', random: () => 0.5, ...extra };
}

export interface Endpoint {
  ID: number;
  URL: string;
  Secret: string;
  EventTypes: string[];
  Partner: string | null;
  Status: string;
  DisabledReason: string | null;
  FailingSince: string | null;
  PreviousSecretExpiresAt: string | null;
}

export async function addEndpoint(t: TestApp, key: string, body: Record<string, unknown>, base = '/api/v2/admin'): Promise<Endpoint> {
  const response = await call(t.app, key, 'POST', `${base}/webhooks`, { EventTypes: ['*'], ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

/**
 * A clock a little ahead of the real one, moving on by more than the availability window at each call, so
 * that every flush may send the availability.changed events of its timeslots.
 */
export function testClock(step = 6) {
  let offset = 0;
  return () => addSeconds(nowSeconds(), (offset += step));
}

/** Dispatches everything written so far and delivers what is due at `now`. */
export async function flush(t: TestApp, deps: DeliveryDeps, now = nowSeconds()) {
  const dispatched = await dispatchEvents(t.db, now);
  const delivered = await runDueDeliveries(t.db, deps, now);
  return { dispatched, delivered };
}

const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
let nextDay = 10;

export interface Setup {
  op: TestOperator;
  receiver: Receiver;
  endpoint: Endpoint;
  slot: AdminTimeslot;
  activityId: string;
  /** A POS booking: booking.created and booking.confirmed (and availability.changed, not subscribed here). */
  book(): Promise<string>;
  deliveries(query?: string): Promise<Delivery[]>;
}

export interface Delivery {
  ID: number;
  EventID: string;
  EventType: string;
  Status: string;
  Attempts: number;
  NextAttemptAt: string | null;
  LastStatusCode: number | null;
  LastDurationMs: number | null;
  LastError: string | null;
  ReplayOf: number | null;
  Test: boolean;
}

/**
 * A new operator with one endpoint (to a new receiver, its secret set for verification) subscribed to
 * `eventTypes`, an activity and a timeslot of its own.
 */
export async function oneEndpoint(
  t: TestApp,
  receivers: Receiver[],
  eventTypes = ['booking.created', 'booking.confirmed', 'booking.cancelled'],
): Promise<Setup> {
  const op = await t.newOperator();
  const receiver = await startReceiver();
  receivers.push(receiver);
  const endpoint = await addEndpoint(t, op.adminKey, { URL: receiver.url, EventTypes: eventTypes });
  receiver.secrets = [endpoint.Secret];
  const activityId = (await createActivity(t, op.adminKey, { MaxParticipantsPerBooking: 5 })).ActivityID;
  const slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(nextDay++), Time: '10:00', Capacity: 100 });
  return {
    op,
    receiver,
    endpoint,
    slot,
    activityId,
    async book() {
      const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: activityId,
        Date: slot.Date,
        Time: slot.Time,
        Participants: 1,
        Customer: customer,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.BookingReference as string;
    },
    async deliveries(query = '') {
      const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/webhooks/${endpoint.ID}/deliveries${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    },
  };
}

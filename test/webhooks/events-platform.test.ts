// Events of the shop, the dashboard and point of sale, usage (opt-in), coalesced availability; the
// dispatcher draining the outbox; and an operator without endpoints writing nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { addEndpoint, flush } from './fixtures.js';
import { about, customer, types, webhookWorld, type World } from './world.js';
import { addSeconds } from '../../src/lib/clock.js';

let t: World['t'];
let op: World['op'];
let own: World['own'];
let viator: World['viator'];
let ownEndpoint: World['ownEndpoint'];
let deps: World['deps'];
let activityId: string;
let clock: World['clock'];
let deliverAll: World['deliverAll'];
let newSlot: World['newSlot'];
let partnerBook: World['partnerBook'];
let world: World;

beforeAll(async () => {
  world = await webhookWorld();
  ({ t, op, own, viator, ownEndpoint, deps, activityId, clock, deliverAll, newSlot, partnerBook } = world);
});
afterAll(() => world.close());
beforeEach(() => world.reset());

describe('the online shop', () => {
  it('holds (booking.created), then checkout: booking.confirmed and order.completed, to the operator only', async () => {
    const slot = await newSlot();
    const shop = `/api/v2/shop/${op.operatorId}`;
    const basket = (await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer })).json().data;
    expect(
      (
        await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/items`, {
          ActivityID: activityId,
          Date: slot.Date,
          Time: slot.Time,
          Participants: 3,
        })
      ).statusCode,
    ).toBe(201);
    const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/checkout`, {
      Payment: { Provider: 'test', CardNumber: '4242424242424242' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    await deliverAll();

    const reference = paid.json().data.Items[0].BookingReference;
    expect(about(own, reference).map((e) => [e.type, e.data.Status, e.data.Source])).toEqual([
      ['booking.created', 'on_hold', 'online'],
      ['booking.confirmed', 'confirmed', 'online'],
    ]);
    const [order] = own.eventsOf('order.completed');
    const { BasketToken, ...shown } = paid.json().data;
    expect(order!.data).toEqual({ BasketID: expect.any(Number), ...shown });
    expect(JSON.stringify(order)).not.toContain(BasketToken);
    // The order-completed meter entry is usage too (opt-in, subscribed here).
    expect(own.eventsOf('usage.recorded').flatMap((e) => e.data.Entries)).toEqual([
      {
        ID: expect.any(Number),
        Meter: 'order-completed',
        Usage: 1,
        OccurredAt: expect.any(Number),
        ExtraInfo: JSON.stringify({ BasketID: order!.data.BasketID }),
      },
    ]);
    expect(types(viator)).toEqual(['availability.changed']);
  });
});

describe('the dashboard and the point of sale', () => {
  it('a POS booking, a cancellation, a capacity change, a new timeslot; activities created, changed, archived', async () => {
    const slot = await newSlot(8);
    const pos = (
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: activityId,
        Date: slot.Date,
        Time: slot.Time,
        Participants: 2,
        Customer: customer,
      })
    ).json().data;
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${pos.BookingReference}/cancel`)).statusCode).toBe(200);
    await deliverAll();
    expect(about(own, pos.BookingReference).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.cancelled']);
    expect(own.eventsOf('availability.changed').map((e) => e.data)).toEqual([expect.objectContaining({ ID: slot.ID, Booked: 0, Available: 8 })]);

    own.clear();
    viator.clear();
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 3 })).statusCode).toBe(200);
    const created = await newSlot(4, '16:00');
    const product = (
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
        Name: 'Night Paddle',
        DurationMinutes: 60,
        Timezone: 'UTC',
        Currency: 'EUR',
        UnitPrice: 100,
      })
    ).json().data;
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${product.ActivityID}`, { UnitPrice: 150 })).statusCode).toBe(200);
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${product.ActivityID}`, { Archived: true })).statusCode).toBe(200);
    expect(
      (await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${product.ActivityID}`, { Name: 'Night Paddle (old)' })).statusCode,
    ).toBe(200);
    await deliverAll();

    for (const receiver of [own, viator]) {
      expect(
        receiver
          .eventsOf('availability.changed')
          .map((e) => [e.data.ID, e.data.Capacity])
          .sort(),
      ).toEqual(
        [
          [created.ID, 4],
          [slot.ID, 3],
        ].sort(),
      );
    }
    const products = own.received.map((r) => r.event).filter((e) => e.type.startsWith('product.'));
    expect(products.map((e) => [e.type, e.data.UnitPrice, e.data.Archived])).toEqual([
      ['product.created', 100, false],
      ['product.updated', 150, false],
      ['product.archived', 150, true],
      ['product.updated', 150, true],
    ]);
    const shown = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${product.ActivityID}`)).json().data;
    expect(products[3]!.data).toEqual(shown);
    // A marketplace hears of the archiving, not of edits to what it can no longer sell.
    expect(viator.received.map((r) => r.event.type).filter((type) => type.startsWith('product.'))).toEqual([
      'product.created',
      'product.updated',
      'product.archived',
    ]);
  });
});

describe('usage (opt-in, batched)', () => {
  it('one usage.recorded per write with its entries, only to endpoints that named it', async () => {
    const batch = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters/batch', {
      Entries: [
        { Meter: 'sms', Usage: 2 },
        { Meter: 'sms', Usage: '0.5', ExtraInfo: '{"to":"+44"}' },
        { Meter: 'api', Usage: 1 },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const single = await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'sms', Usage: 3 });
    expect(single.statusCode).toBe(201);
    await deliverAll();
    const events = own.eventsOf('usage.recorded');
    expect(events.map((e) => e.data.Entries.map((entry: { Meter: string; Usage: number }) => [entry.Meter, entry.Usage]))).toEqual([
      [
        ['sms', 2],
        ['sms', 0.5],
        ['api', 1],
      ],
      [['sms', 3]],
    ]);
    expect(events[0]!.data.Entries[1]).toEqual({
      ID: batch.json().data.Entries[1].ID,
      Meter: 'sms',
      Usage: 0.5,
      OccurredAt: expect.any(Number),
      ExtraInfo: '{"to":"+44"}',
    });
    // "*" does not include it, and a marketplace never gets it.
    expect(types(viator)).toEqual([]);
  });

  it('costs nothing while no endpoint names it', async () => {
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/webhooks/${ownEndpoint.ID}`, { EventTypes: ['*'] });
    const before = await t.db.kysely
      .selectFrom('webhook_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await call(t.app, op.usageKey, 'POST', '/api/v2/usage/meters', { Meter: 'sms', Usage: 1 })).statusCode).toBe(201);
    const after = await t.db.kysely
      .selectFrom('webhook_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/webhooks/${ownEndpoint.ID}`, { EventTypes: ['*', 'usage.recorded'] });
  });
});

describe('availability.changed is coalesced', () => {
  it('at most one per timeslot per window, showing the seats as they are when sent', async () => {
    const slot = await newSlot(20);
    const now = clock();
    for (let i = 0; i < 5; i++) await partnerBook(slot, { Participants: 1 });
    await flush(t, deps, now);
    for (let i = 0; i < 3; i++) await partnerBook(slot, { Participants: 1 });
    await flush(t, deps, addSeconds(now, 2)); // within the window: held back
    expect(own.eventsOf('availability.changed').map((e) => e.data.Booked)).toEqual([5]);
    await flush(t, deps, addSeconds(now, 6));
    expect(own.eventsOf('availability.changed').map((e) => e.data.Booked)).toEqual([5, 8]);
    await flush(t, deps, addSeconds(now, 20)); // nothing changed since
    expect(own.eventsOf('availability.changed')).toHaveLength(2);
  });
});

describe('the dispatcher', () => {
  it('goes on until the outbox is empty, however its events fall into batches', async () => {
    const slot = await newSlot(50);
    for (let i = 0; i < 10; i++) await partnerBook(slot, { Participants: 1 });
    const { dispatchEvents } = await import('../../src/webhooks/deliveries/dispatch.js');
    const report = await dispatchEvents(t.db, clock(), 3);
    expect(report.events).toBeGreaterThanOrEqual(20);
    expect(
      Number(
        (
          await t.db.kysely
            .selectFrom('webhook_outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
  });
});

describe('the outbox entries of bookings', () => {
  it('are short (types and the packed row); the long ones of rows written before still dispatch alike', async () => {
    const slot = await newSlot();
    const rewritten = [(await partnerBook(slot)).BookingReference, (await partnerBook(slot)).BookingReference];
    // A backlog across an upgrade: every entry rewritten in the long form of the version before.
    let shortOnes = 0;
    for (const row of await t.db.kysely.selectFrom('webhook_outbox').selectAll().execute()) {
      const entries = JSON.parse(row.events) as unknown[][];
      shortOnes += entries.filter((entry) => entry.length === 2).length;
      const long = entries.map((entry) => {
        if (entry.length !== 2) return entry;
        const packed = entry[1] as unknown[];
        return [entry[0], `booking:${String(packed[2])}`, packed[5] === 'partner' ? 'partner' : 'operator', packed[6], packed[0], packed, null];
      });
      await t.db.kysely
        .updateTable('webhook_outbox')
        .set({ events: JSON.stringify(long) })
        .where('id', '=', row.id)
        .execute();
    }
    expect(shortOnes).toBe(2);
    const short = (await partnerBook(slot)).BookingReference;
    await deliverAll();
    for (const reference of [...rewritten, short]) {
      for (const receiver of [own, viator]) {
        const events = about(receiver, reference);
        expect(events.map((e) => [e.type, e.data.Status, e.data.Partner])).toEqual([
          ['booking.created', 'confirmed', 'viator'],
          ['booking.confirmed', 'confirmed', 'viator'],
        ]);
      }
    }
  });
});

describe('no endpoint, no events', () => {
  it('an operator without an enabled endpoint writes nothing to the outbox', async () => {
    const other = await t.newOperator('Quiet Tours');
    const activity = (await createActivity(t, other.adminKey, { Name: 'Quiet Walk' })).ActivityID;
    const slot = await createTimeslot(t, other.adminKey, activity, { Date: dateFromToday(5), Time: '09:00', Capacity: 5 });
    const endpoint = await addEndpoint(t, other.adminKey, { URL: own.url, Enabled: false });
    expect(endpoint.Status).toBe('disabled');
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('webhook_outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('operator_id', '=', other.operatorId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const booked = await call(t.app, other.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: activity,
      Date: slot.Date,
      Time: slot.Time,
      Participants: 1,
      Customer: customer,
    });
    expect(booked.statusCode).toBe(201);
    expect(await count()).toBe(0);
    const changes = await t.db.kysely.selectFrom('webhook_timeslot_changes').selectAll().where('operator_id', '=', other.operatorId).execute();
    expect(changes).toEqual([]);
  });
});

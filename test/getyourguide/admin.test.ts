// The operator's GetYourGuide connection: set up on the first change with credentials shown once,
// rotated, switched off, GYG's outbound credentials sealed, the hold length from GYG_HOLD_MINUTES or the
// connection, and which activities and ticket types are offered (and why not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { seedDemo } from '../../src/demo/seed.js';
import { admin, berlin, day, gygClient, mappedActivity, reserveBody } from './fixtures.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp({ GYG_HOLD_MINUTES: '15' });
  op = await t.newOperator();
});
afterAll(async () => t.close());

const products = (supplier: string) => `suppliers/${supplier}/products/`;

describe('the connection', () => {
  it('is set up by its first change, with a password shown once, and rotated', async () => {
    const before = await admin(t, op, 'GET', '/api/v2/admin/getyourguide');
    expect(before).toMatchObject({
      Configured: false,
      Enabled: false,
      Username: null,
      EndpointURL: 'http://slotbook.test/gyg',
      EffectiveHoldMinutes: 15,
    });

    const made = await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: true, SupplierID: 'harbour-42' });
    expect(made).toMatchObject({ Configured: true, Enabled: true, SupplierID: 'harbour-42', Username: expect.stringMatching(/^gyg_/) });
    expect(made.Password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const read = await admin(t, op, 'GET', '/api/v2/admin/getyourguide');
    expect(read).not.toHaveProperty('Password');
    const stored = await t.db.kysely.selectFrom('gyg_connections').selectAll().where('operator_id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.Password);

    const old = gygClient(t, made.Username, made.Password);
    expect((await old('GET', 'products', products('harbour-42'))).data.supplierId).toBe('harbour-42');
    const rotated = await admin(t, op, 'POST', '/api/v2/admin/getyourguide/credentials');
    expect(rotated.Password).toBeTruthy();
    expect(rotated.Username).not.toBe(made.Username);
    expect((await old('GET', 'products', products('harbour-42'))).errorCode).toBe('AUTHORIZATION_FAILURE');
    const fresh = gygClient(t, rotated.Username, rotated.Password);
    expect((await fresh('GET', 'products', products('harbour-42'))).data.supplierId).toBe('harbour-42');
    // A second change does not show the password again.
    expect(await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { TicketStyle: 'COLLECTIVE' })).not.toHaveProperty('Password');
  });

  it("seals GYG's outbound password and never shows it", async () => {
    const set = await admin(t, op, 'PUT', '/api/v2/admin/getyourguide/outbound', { Username: 'gyg-api-user', Password: 'gyg api secret 123' });
    expect(set).toMatchObject({ OutboundUsername: 'gyg-api-user', OutboundPasswordSet: true });
    expect(JSON.stringify(set)).not.toContain('gyg api secret 123');
    const stored = await t.db.kysely.selectFrom('gyg_connections').selectAll().where('operator_id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(stored.outbound_password_sealed).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain('gyg api secret 123');
    const audit = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=getyourguide.outbound-set')).json().data;
    expect(JSON.stringify(audit)).not.toContain('gyg api secret 123');
    expect(await admin(t, op, 'DELETE', '/api/v2/admin/getyourguide/outbound')).toMatchObject({ OutboundUsername: null, OutboundPasswordSet: false });
  });

  it('holds seats for GYG_HOLD_MINUTES, or the minutes the connection sets', async () => {
    const connection = await admin(t, op, 'POST', '/api/v2/admin/getyourguide/credentials');
    const gyg = gygClient(t, connection.Username, connection.Password);
    const product = await mappedActivity(t, op, 10, 3);
    const minutesLeft = async (reference: string) => {
      const answer = await gyg('POST', 'reserve', 'reserve/', reserveBody(product.productId, berlin(day(3)), reference));
      return Math.round((Date.parse(answer.data.reservationExpiration) - Date.now()) / 60_000);
    };
    expect(await minutesLeft('GYGHOLD1')).toBe(15);
    await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { HoldMinutes: 45 });
    expect(await minutesLeft('GYGHOLD2')).toBe(45);
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/getyourguide', { HoldMinutes: 0 }), 422, 'validation');
  });

  it('is for owners and admin keys only', async () => {
    expect((await call(t.app, op.otaKey, 'GET', '/api/v2/admin/getyourguide')).statusCode).toBe(403);
    expect((await call(t.app, undefined, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: true })).statusCode).toBe(401);
  });
});

describe('the product mapping', () => {
  it('says per ticket type whether it is offered, and why not', async () => {
    const activity = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'Bike tour',
      DurationMinutes: 120,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 3000,
    });
    const id = activity.ActivityID;
    const add = (body: object) => admin(t, op, 'POST', `/api/v2/admin/activities/${id}/ticket-types`, body);
    await add({ Type: 'guest', Name: 'Guest', Price: 3000, Category: 'other' });
    await add({ Type: 'grown-up', Name: 'Grown-up', Price: 3000, Category: 'adult' });
    await add({ Type: 'kid', Name: 'Kid', Price: 1000, Category: 'child', Requires: 'guest' });
    await add({ Type: 'family', Name: 'Family', Price: 8000, Category: 'family', People: 4 });

    const unmapped = (await admin(t, op, 'GET', '/api/v2/admin/getyourguide/products')).find((p: { ActivityID: string }) => p.ActivityID === id);
    expect(unmapped.ProductID).toBeNull();
    expect(unmapped.TicketTypes.every((type: { Offered: boolean }) => !type.Offered)).toBe(true);

    const mapped = await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${id}`, { ProductID: 'bike-tour' });
    const byType = Object.fromEntries(mapped.TicketTypes.map((type: { Type: string }) => [type.Type, type]));
    expect(byType.adult).toMatchObject({ Category: 'ADULT', Offered: true, Reason: null });
    expect(byType.guest).toMatchObject({ Category: null, Offered: false, Reason: expect.stringContaining('no GetYourGuide equivalent') });
    expect(byType['grown-up']).toMatchObject({
      Category: 'ADULT',
      Offered: false,
      Reason: expect.stringContaining('"adult" already sells as ADULT'),
    });
    expect(byType.kid).toMatchObject({ Category: 'CHILD', Offered: false, Reason: expect.stringContaining('"guest"') });
    expect(byType.family).toMatchObject({ Offered: false, Reason: expect.stringContaining('GROUP') });

    // The operator gives "guest" a category: the kid that comes with it is offered too; "grown-up" is kept off.
    const chosen = await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${id}`, {
      Categories: [
        { Type: 'guest', Category: 'SENIOR' },
        { Type: 'grown-up', Category: 'NONE' },
      ],
    });
    const after = Object.fromEntries(chosen.TicketTypes.map((type: { Type: string }) => [type.Type, type]));
    expect(after.guest).toMatchObject({ Category: 'SENIOR', Chosen: true, Offered: true });
    expect(after.kid).toMatchObject({ Offered: true });
    expect(after['grown-up']).toMatchObject({ Offered: false, Reason: expect.stringContaining('chose not') });
  });

  it('refuses a product ID that is taken, malformed, or an unknown ticket type', async () => {
    const a = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'A',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    const b = await admin(t, op, 'POST', '/api/v2/admin/activities', {
      Name: 'B',
      DurationMinutes: 60,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 100,
    });
    await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${a.ActivityID}`, { ProductID: 'taken' });
    const taken = problemOf(
      await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/getyourguide/products/${b.ActivityID}`, { ProductID: 'taken' }),
      422,
      'validation',
    );
    expect(taken.errors?.[0]?.field).toBe('ProductID');
    problemOf(
      await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/getyourguide/products/${b.ActivityID}`, { ProductID: '50%off' }),
      422,
      'validation',
    );
    const unknown = problemOf(
      await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/getyourguide/products/${b.ActivityID}`, {
        Categories: [{ Type: 'nobody', Category: 'ADULT' }],
      }),
      422,
      'validation',
    );
    expect(unknown.errors?.[0]?.field).toBe('Categories[0].Type');
    problemOf(await call(t.app, op.adminKey, 'PUT', '/api/v2/admin/getyourguide/products/s_AAAAAAAAAAAAAAAA', { ProductID: 'x' }), 404, 'not-found');
    // Unmapped: no longer offered.
    await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${a.ActivityID}`, { ProductID: null });
    expect(
      (await admin(t, op, 'GET', '/api/v2/admin/getyourguide/products')).find((p: { ActivityID: string }) => p.ActivityID === a.ActivityID).ProductID,
    ).toBeNull();
  });
});

describe('the demo', () => {
  it('is connected on first start, its credentials on a line starting with getyourguide', async () => {
    const demo = await seedDemo(t.db);
    const line = demo
      .announcement('http://slotbook.test')
      .split('\n')
      .find((text) => text.startsWith('getyourguide'))!;
    const match = /supplier (\S+) (\S+):(\S+)/.exec(line)!;
    expect(match).not.toBeNull();
    const [, supplier, username, password] = match;
    const gyg = gygClient(t, username!, password!);
    const list = await gyg('GET', 'products', products(supplier!));
    expect(list.data.products.map((p: { productId: string }) => p.productId).sort()).toEqual([...demo.activityIds].sort());
    const [first] = demo.activityIds;
    const range = `fromDateTime=${encodeURIComponent(berlin(day(1), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(30), '23:59'))}`;
    const availability = await gyg('GET', 'get-availabilities', `get-availabilities/?productId=${first}&${range}`);
    expect(availability.data.availabilities.length).toBeGreaterThan(0);
    // Without outbound credentials until the operator enters GYG's.
    const connection = (await call(t.app, demo.keys.admin, 'GET', '/api/v2/admin/getyourguide')).json().data;
    expect(connection).toMatchObject({ Enabled: true, SupplierID: supplier, OutboundPasswordSet: false });
    // Every demo activity has its illustration, served like an operator's photo (issue 26, item 5).
    const activities = (await call(t.app, demo.keys.admin, 'GET', '/api/v2/admin/activities')).json().data as {
      Photos: { Alt: string; Sizes: { Width: number; Url: string }[] }[];
    }[];
    expect(activities.map((activity) => activity.Photos.length)).toEqual(demo.activityIds.map(() => 1));
    const photo = activities[0]!.Photos[0]!;
    expect(photo.Alt).toMatch(/^Illustration: /);
    const served = await t.app.inject({ method: 'GET', url: new URL(photo.Sizes[0]!.Url, 'http://x').pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
  });
});

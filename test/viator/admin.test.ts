// The operator's Viator connection: set up on the first change with a key shown once, rotated, switched
// off, Viator's outbound key sealed, which activities and ticket types are offered (and why not), only for
// those who manage keys; and the demo, connected on first start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { seedDemo } from '../../src/demo/seed.js';
import { admin, day, mappedActivity, reserveBody, SUPPLIER_ID, tourListBody, viatorClient } from './fixtures.js';

let t: TestApp;
let op: TestOperator;

beforeAll(async () => {
  t = await createTestApp({ VIATOR_HOLD_MINUTES: '20', VIATOR_API_URL: 'http://127.0.0.1:9/viator-api/' });
  op = await t.newOperator();
});
afterAll(async () => t.close());

const calendar = (optionId: string) => ({ supplierId: SUPPLIER_ID, productOptionIds: [optionId], startDate: day(0), endDate: day(5) });

describe('the connection', () => {
  it('is set up by its first change, with a key shown once, and rotated', async () => {
    expect(await admin(t, op, 'GET', '/api/v2/admin/viator')).toMatchObject({
      Configured: false,
      Enabled: false,
      KeyHint: null,
      EndpointURL: 'http://slotbook.test/viator',
      HoldMinutes: 20,
      NotificationsURL: 'http://127.0.0.1:9/viator-api/v2/notification/events',
    });
    const made = await admin(t, op, 'PATCH', '/api/v2/admin/viator', { Enabled: true, SupplierID: String(SUPPLIER_ID) });
    expect(made).toMatchObject({ Configured: true, Enabled: true, SupplierID: '1004', KeyHint: expect.stringMatching(/^vtr_/) });
    expect(made.Key).toMatch(/^vtr_[A-Za-z0-9_-]{32}$/);
    expect(await admin(t, op, 'GET', '/api/v2/admin/viator')).not.toHaveProperty('Key');
    const stored = await t.db.kysely.selectFrom('viator_connections').selectAll().where('operator_id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.Key);

    const old = viatorClient(t, made.Key);
    expect((await old('tourlist', tourListBody())).body.data.RequestStatus.Status).toBe('SUCCESS');
    const rotated = await admin(t, op, 'POST', '/api/v2/admin/viator/key');
    expect(rotated.Key).toBeTruthy();
    expect(rotated.Key).not.toBe(made.Key);
    expect((await old('calendar', calendar('x'))).status).toBe(401);
    expect((await viatorClient(t, rotated.Key)('calendar', calendar('x'))).status).toBe(200);
    expect(await admin(t, op, 'PATCH', '/api/v2/admin/viator', { Enabled: true })).not.toHaveProperty('Key');
    const audit = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=viator.rotate')).json().data;
    expect(audit.length).toBe(1);
    expect(JSON.stringify(audit)).not.toContain(rotated.Key);
  });

  it("seals Viator's outbound key and never shows it", async () => {
    const set = await admin(t, op, 'PUT', '/api/v2/admin/viator/outbound', { Key: 'viator-outbound-secret-123' });
    expect(set).toMatchObject({ OutboundKeySet: true });
    expect(JSON.stringify(set)).not.toContain('viator-outbound-secret-123');
    const stored = await t.db.kysely.selectFrom('viator_connections').selectAll().where('operator_id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(stored.outbound_key_sealed).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain('viator-outbound-secret-123');
    const audit = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=viator.outbound-set')).json().data;
    expect(JSON.stringify(audit)).not.toContain('viator-outbound-secret-123');
    expect(await admin(t, op, 'DELETE', '/api/v2/admin/viator/outbound')).toMatchObject({ OutboundKeySet: false });
  });

  it('refuses bad settings with a problem naming the field, and is only for those who manage keys', async () => {
    expect(
      problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/viator', { SupplierID: 'abc' }), 422, 'validation').errors?.[0]?.field,
    ).toBe('SupplierID');
    expect(
      problemOf(await call(t.app, op.adminKey, 'PUT', '/api/v2/admin/viator/outbound', { Key: 'has space' }), 422, 'validation').errors?.[0]?.field,
    ).toBe('Key');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/admin/viator'), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'POST', '/api/v2/admin/viator/key'), 403, 'forbidden');
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/admin/viator/products'), 401, 'unauthenticated');
  });
});

describe('products and age bands', () => {
  it('says per ticket type which age band it sells as, or why it is not offered', async () => {
    const { activityId, optionId } = await mappedActivity(t, op, 5, 2);
    const add = (body: object) => admin(t, op, 'POST', `/api/v2/admin/activities/${activityId}/ticket-types`, body);
    await add({ Type: 'student', Name: 'Student', Price: 2000, Category: 'student' });
    await add({ Type: 'youth', Name: 'Youth', Price: 1800, Category: 'youth' });
    await add({ Type: 'family', Name: 'Family', Price: 8000, Category: 'family', People: 4 });
    const mapping = (await admin(t, op, 'GET', '/api/v2/admin/viator/products')).find((p: { ActivityID: string }) => p.ActivityID === activityId);
    const byType = Object.fromEntries(mapping.TicketTypes.map((m: { Type: string }) => [m.Type, m]));
    expect(mapping).toMatchObject({ ProductOptionID: optionId, Notifying: false });
    expect(byType.adult).toMatchObject({ Band: 'ADULT', Offered: true, Reason: null, Chosen: false });
    expect(byType.child).toMatchObject({ Band: 'CHILD', Offered: true });
    expect(byType.student).toMatchObject({ Band: 'YOUTH', Offered: true });
    expect(byType.youth).toMatchObject({ Band: 'YOUTH', Offered: false, Reason: expect.stringContaining('"student" already sells as YOUTH') });
    expect(byType.family).toMatchObject({ Band: null, Offered: false, Reason: expect.stringContaining('no Viator age band') });

    // The family ticket as UNIT: then the product sells units only, and says so of the others.
    const unit = await admin(t, op, 'PUT', `/api/v2/admin/viator/products/${activityId}`, { Bands: [{ Type: 'family', Band: 'UNIT' }] });
    const after = Object.fromEntries(unit.TicketTypes.map((m: { Type: string }) => [m.Type, m]));
    expect(after.family).toMatchObject({ Band: 'UNIT', Chosen: true, Offered: true });
    expect(after.adult).toMatchObject({ Offered: false, Reason: expect.stringContaining('units only') });
    const key = (await admin(t, op, 'POST', '/api/v2/admin/viator/key')).Key;
    const viator = viatorClient(t, key);
    const reserved = await viator('reserve', reserveBody(optionId, day(2), [{ type: 'UNIT', quantity: 1 }]));
    expect(reserved.body).toMatchObject({ status: 'RESERVED', price: { type: 'PER_UNIT_PRICE', retailPrice: 80, maxTravelers: 4 } });
    // Five travellers do not fit one unit of four.
    const crowded = await viator('reserve', { ...reserveBody(optionId, day(2), [{ type: 'UNIT', quantity: 1 }]), totalTravelers: 5 });
    expect(crowded.body).toEqual({ status: 'NOT_RESERVED', reason: 'LIMITED_AVAILABILITY' });

    await admin(t, op, 'PUT', `/api/v2/admin/viator/products/${activityId}`, {
      Bands: [
        { Type: 'family', Band: null },
        { Type: 'adult', Band: 'NONE' },
      ],
    });
    const none = (await admin(t, op, 'GET', '/api/v2/admin/viator/products')).find((p: { ActivityID: string }) => p.ActivityID === activityId);
    const adult = none.TicketTypes.find((m: { Type: string }) => m.Type === 'adult');
    expect(adult).toMatchObject({ Offered: false, Reason: expect.stringContaining('chose not') });
  });

  it('refuses a product option ID another activity has, and unknown ticket types, naming the field', async () => {
    const first = await mappedActivity(t, op, 5, 2);
    const second = await mappedActivity(t, op, 5, 2);
    const taken = await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/viator/products/${second.activityId}`, { ProductOptionID: first.optionId });
    expect(problemOf(taken, 422, 'validation').errors?.[0]?.field).toBe('ProductOptionID');
    const pipe = await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/viator/products/${second.activityId}`, { ProductOptionID: 'a|b' });
    expect(problemOf(pipe, 422, 'validation').errors?.[0]?.field).toBe('ProductOptionID');
    const unknown = await call(t.app, op.adminKey, 'PUT', `/api/v2/admin/viator/products/${second.activityId}`, {
      Bands: [{ Type: 'nope', Band: 'ADULT' }],
    });
    expect(problemOf(unknown, 422, 'validation').errors?.[0]?.field).toBe('Bands[0].Type');
    problemOf(await call(t.app, op.adminKey, 'PUT', '/api/v2/admin/viator/products/s_doesnotexist1', { ProductOptionID: 'x' }), 404, 'not-found');
  });

  it("lists Viator's latest requests, without who travels", async () => {
    const connection = await admin(t, op, 'GET', '/api/v2/admin/viator');
    expect(connection.Requests.length).toBeGreaterThan(0);
    expect(connection.Requests[0]).toEqual({
      Endpoint: expect.any(String),
      ProductOptionID: expect.anything(),
      Outcome: expect.anything(),
      DurationMs: expect.any(Number),
      At: expect.any(String),
    });
    expect(connection.Requests.map((r: { Outcome: string | null }) => r.Outcome)).toContain('LIMITED_AVAILABILITY');
  });
});

describe('the demo', () => {
  it('is connected on first start: its announcement carries the Viator line, and its calendar answers', { timeout: 120_000 }, async () => {
    const demo = await seedDemo(t.db);
    const line = demo
      .announcement('http://slotbook.test')
      .split('\n')
      .find((l) => l.startsWith('viator supplier '));
    const match = /^viator supplier (\d+) key (vtr_\S+) (\S+)$/.exec(line ?? '');
    expect(match, line).not.toBeNull();
    const [, supplier, key, base] = match!;
    expect(base).toBe('http://slotbook.test/viator');
    const viator = viatorClient(t, key!);
    const answer = await viator('calendar', { supplierId: Number(supplier), productOptionIds: demo.activityIds, startDate: day(1), endDate: day(3) });
    expect(answer.body.productOptions.map((o: { productOptionId: string }) => o.productOptionId).sort()).toEqual([...demo.activityIds].sort());
    const connection = (await call(t.app, demo.keys.admin, 'GET', '/api/v2/admin/viator')).json().data;
    // Without Viator's key for its notification endpoint, the demo pushes nothing.
    expect(connection).toMatchObject({ Enabled: true, OutboundKeySet: false });
  });
});

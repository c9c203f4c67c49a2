import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
const activities: Record<string, { ID: number; ActivityID: string }> = {};

async function createActivity(key: string, body: Record<string, unknown>) {
  const response = await call(t.app, key, 'POST', '/api/v2/admin/activities', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  const base = { DurationMinutes: 90, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 4500 };
  activities.kayak = await createActivity(op.adminKey, { ...base, Name: 'Sunset Kayak Tour', Description: 'Paddle at dusk' });
  activities.room = await createActivity(op.adminKey, { ...base, Name: 'Escape Room: The Vault', MaxParticipantsPerBooking: 6 });
  activities.archived = await createActivity(op.adminKey, { ...base, Name: 'Winter Kayak' });
  await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activities.archived!.ActivityID}`, { Archived: true });
  activities.foreign = await createActivity(other.adminKey, { ...base, Name: 'Foreign Kayak' });
});
afterAll(() => t.close());

describe('GET /api/v2/ota/{partner}/products', () => {
  it("lists the operator's live products ordered by ID, with the contract's fields", async () => {
    const response = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((p: { Name: string }) => p.Name)).toEqual(['Sunset Kayak Tour', 'Escape Room: The Vault']);
    expect(data[0]).toEqual({
      ID: activities.kayak!.ID,
      ActivityID: expect.stringMatching(/^s_[A-Za-z0-9]{8,32}$/),
      Name: 'Sunset Kayak Tour',
      Description: 'Paddle at dusk',
      DurationMinutes: 90,
      Timezone: 'Europe/Berlin',
      Currency: 'EUR',
      UnitPrice: 4500,
      MaxParticipantsPerBooking: 20,
      UpdatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // Ticket types (issue 12): a new activity sells one type, Adult, at UnitPrice.
      AvailabilityType: 'start_time',
      TicketTypes: [
        {
          Type: 'adult',
          Name: 'Adult',
          Price: 4500,
          Category: 'adult',
          MinAge: null,
          MaxAge: null,
          People: 1,
          TakesSeat: true,
          MinPerBooking: 0,
          MaxPerBooking: null,
          Requires: null,
          Default: true,
        },
      ],
      // What guests need to know (issue 26): nothing until the operator says.
      MeetingPoint: null,
      Inclusions: [],
      WhatToBring: [],
      Photos: [],
    });
  });

  it('carries the meeting point, inclusions and what to bring the operator wrote (trimmed), and refuses half coordinates', async () => {
    const id = activities.kayak!.ActivityID;
    const details = {
      MeetingPoint: { Address: ' Pier 3, Berlin ', MapUrl: 'https://maps.example/pier3', Latitude: 52.52, Longitude: 13.38 },
      Inclusions: ['Kayak and paddle ', '  '],
      WhatToBring: ['A towel'],
    };
    const changed = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, details);
    expect(changed.statusCode, changed.body).toBe(200);
    const listed = (await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products')).json().data[0];
    expect(listed).toMatchObject({
      MeetingPoint: { Address: 'Pier 3, Berlin', MapUrl: 'https://maps.example/pier3', Latitude: 52.52, Longitude: 13.38 },
      Inclusions: ['Kayak and paddle'],
      WhatToBring: ['A towel'],
    });
    const half = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, {
      MeetingPoint: { Address: 'Somewhere', MapUrl: null, Latitude: 52.5, Longitude: null },
    });
    expect(half.statusCode).toBe(422);
    expect(half.json().errors.map((e: { field: string }) => e.field)).toEqual(['MeetingPoint']);
    const insecure = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, {
      MeetingPoint: { Address: 'Somewhere', MapUrl: 'javascript:alert(1)', Latitude: null, Longitude: null },
    });
    expect(insecure.statusCode).toBe(422);
    expect(insecure.json().errors[0].field).toMatch(/^MeetingPoint/);
    const cleared = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${id}`, {
      MeetingPoint: null,
      Inclusions: [],
      WhatToBring: [],
    });
    expect(cleared.json().data).toMatchObject({ MeetingPoint: null, Inclusions: [], WhatToBring: [] });
  });

  it('filters by name, case-insensitively and anywhere in the name', async () => {
    const response = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products?name=KAYAK');
    expect(response.json().data.map((p: { Name: string }) => p.Name)).toEqual(['Sunset Kayak Tour']);
    const none = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products?name=%25');
    expect(none.json().data).toEqual([]);
  });

  it('answers 304 to If-None-Match with the current ETag', async () => {
    const first = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products', undefined, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("requires a key (401 with WWW-Authenticate), the ota scope and the key's own marketplace (403)", async () => {
    const none = await call(t.app, undefined, 'GET', '/api/v2/ota/viator/products');
    problemOf(none, 401, 'unauthenticated');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    problemOf(await call(t.app, 'sbk_not-a-real-key', 'GET', '/api/v2/ota/viator/products'), 401, 'unauthenticated');
    problemOf(await call(t.app, op.usageKey, 'GET', '/api/v2/ota/viator/products'), 403, 'forbidden');
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/ota/viator/products'), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/getyourguide/products'), 403, 'forbidden');
  });

  it('answers 401 for a revoked key', async () => {
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'temp', Scopes: ['ota'], Partner: 'viator' });
    expect(created.statusCode).toBe(201);
    const { ID, Key } = created.json().data;
    expect((await call(t.app, Key, 'GET', '/api/v2/ota/viator/products')).statusCode).toBe(200);
    expect((await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/keys/${ID}`)).statusCode).toBe(204);
    problemOf(await call(t.app, Key, 'GET', '/api/v2/ota/viator/products'), 401, 'unauthenticated');
  });
});

describe('GET /api/v2/ota/{partner}/resolve-product', () => {
  const resolve = (query: string, key = op.otaKey) => call(t.app, key, 'GET', `/api/v2/ota/viator/resolve-product${query}`);

  it('resolves by numeric ID and by exact name, case-insensitively', async () => {
    const byId = await resolve(`?ID=${activities.room!.ID}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().data.Name).toBe('Escape Room: The Vault');
    const byName = await resolve('?Name=sunset%20KAYAK%20tour');
    expect(byName.json().data.ActivityID).toBe(activities.kayak!.ActivityID);
  });

  it('is 400 with neither, both, or a non-positive-integer ID', async () => {
    for (const query of ['', `?ID=${activities.room!.ID}&Name=x`, '?ID=abc', '?ID=0', '?ID=-3', '?ID=1.5']) {
      problemOf(await resolve(query), 400, 'bad-request');
    }
  });

  it("is 404 for unknown, partial, archived and other operators' products", async () => {
    problemOf(await resolve('?ID=999999'), 404, 'not-found');
    problemOf(await resolve('?Name=Sunset'), 404, 'not-found');
    problemOf(await resolve(`?ID=${activities.archived!.ID}`), 404, 'not-found');
    problemOf(await resolve(`?ID=${activities.foreign!.ID}`), 404, 'not-found');
    problemOf(await resolve('?Name=Foreign%20Kayak'), 404, 'not-found');
  });
});

describe('admin activities', () => {
  it('validates every field at once (422 naming each)', async () => {
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: 'x',
      DurationMinutes: '90',
      Timezone: 'Mars/Olympus',
      Currency: 'EUR',
    });
    const problem = problemOf(response, 422, 'validation');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['DurationMinutes', 'UnitPrice']);
    const zone = problemOf(
      await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
        Name: 'x',
        DurationMinutes: 5,
        Timezone: 'Mars/Olympus',
        Currency: 'XYZ',
        UnitPrice: 1,
      }),
      422,
      'validation',
    );
    expect(zone.errors!.map((e) => e.field)).toEqual(['Timezone', 'Currency']);
  });

  it("is 404 for another operator's activity and 400 for a malformed ActivityID", async () => {
    problemOf(
      await call(t.app, other.adminKey, 'PATCH', `/api/v2/admin/activities/${activities.kayak!.ActivityID}`, { Name: 'Mine' }),
      404,
      'not-found',
    );
    problemOf(await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities/nope'), 400, 'bad-request');
  });
});

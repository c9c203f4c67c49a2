// Webhook endpoints through the admin API and a marketplace's own partner API: add (the secret shown
// once, stored sealed, never logged), list, change, disable, enable, delete; validation naming each field;
// tenant and marketplace isolation (another's endpoint is a 404); the limit; the settings; the event
// types; and the OpenAPI document's webhooks section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, LOOPBACK_NETWORKS, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { buildApp } from '../../src/app.js';
import { createApiKey } from '../../src/auth/service.js';
import { EVENT_TYPES } from '../../src/events/types.js';
import { SECRET_PURPOSE } from '../../src/webhooks/endpoints/signing.js';
import { MAX_ENDPOINTS, MAX_MARKETPLACE_ENDPOINTS } from '../../src/webhooks/endpoints/service.js';
import { addEndpoint } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
const admin = '/api/v2/admin/webhooks';
const viator = '/api/v2/ota/viator/webhooks';

beforeAll(async () => {
  // The endpoints point at this machine, marketplaces' included.
  t = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: LOOPBACK_NETWORKS });
  op = await t.newOperator();
});
afterAll(() => t.close());

describe("the operator's endpoints", () => {
  it('adds one: 201 with the secret this once and Location; lists and reads it without the secret; the secret is stored sealed', async () => {
    const response = await call(t.app, op.adminKey, 'POST', admin, {
      URL: 'http://localhost:4000/hooks',
      EventTypes: ['booking.created', 'booking.cancelled'],
      Description: 'CRM sync',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json().data;
    expect(response.headers.location).toBe(`${admin}/${created.ID}`);
    expect(created).toMatchObject({
      URL: 'http://localhost:4000/hooks',
      Description: 'CRM sync',
      EventTypes: ['booking.created', 'booking.cancelled'],
      Partner: null,
      Status: 'enabled',
      DisabledReason: null,
      FailingSince: null,
      PreviousSecretExpiresAt: null,
    });
    expect(created.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = (await call(t.app, op.adminKey, 'GET', admin)).json().data;
    expect(listed.find((e: { ID: number }) => e.ID === created.ID)).toEqual((({ Secret, ...rest }) => rest)(created));
    const read = await call(t.app, op.adminKey, 'GET', `${admin}/${created.ID}`);
    expect(read.json().data.Secret).toBeUndefined();
    expect(read.body).not.toContain(created.Secret);
    const row = await t.db.kysely.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.ID).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.Secret.slice(6));
    expect(t.app.instanceKeys.open(SECRET_PURPOSE, row.secret_sealed)).toBe(created.Secret);
  });

  it('names every failing field', async () => {
    const bad = problemOf(
      await call(t.app, op.adminKey, 'POST', admin, {
        URL: 'ftp://x',
        EventTypes: ['*', 'booking.exploded'],
        Partner: 'Not A Market',
        Description: 'tab\there',
      }),
      422,
      'validation',
    );
    expect(bad.errors?.map((e) => e.field).sort()).toEqual(['Description']);
    const rules = problemOf(
      await call(t.app, op.adminKey, 'POST', admin, { URL: 'ftp://x', EventTypes: ['*', 'booking.exploded'], Partner: 'Not A Market' }),
      422,
      'validation',
    );
    expect(rules.errors?.map((e) => e.field)).toEqual(['Partner', 'EventTypes[1]', 'URL']);
    expect(
      problemOf(await call(t.app, op.adminKey, 'POST', admin, { URL: 'https://example.com' }), 422, 'validation').errors?.map((e) => e.field),
    ).toEqual(['EventTypes']);
    expect(
      problemOf(await call(t.app, op.adminKey, 'POST', admin, { URL: 'https://example.com', EventTypes: [] }), 422, 'validation').errors?.[0]?.field,
    ).toBe('EventTypes');
    expect(
      problemOf(
        await call(t.app, op.adminKey, 'POST', admin, { URL: `https://example.com/${'x'.repeat(2100)}`, EventTypes: ['*'] }),
        422,
        'validation',
      ).errors?.[0]?.field,
    ).toBe('URL');
    problemOf(await call(t.app, op.adminKey, 'POST', admin, { URL: 'https://example.com', EventTypes: ['*', '*'] }), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'PATCH', `${admin}/1`, {}), 422, 'validation');
    problemOf(await call(t.app, op.adminKey, 'GET', `${admin}/abc`), 400, 'bad-request');
    problemOf(await call(t.app, op.adminKey, 'GET', `${admin}/99999999999`), 400, 'bad-request');
    problemOf(await call(t.app, op.adminKey, 'GET', `${admin}/999999`), 404, 'not-found');
  });

  it('changes, disables (manual), enables and deletes', async () => {
    const endpoint = await addEndpoint(t, op.adminKey, { URL: 'http://localhost:4000/a' });
    const changed = await call(t.app, op.adminKey, 'PATCH', `${admin}/${endpoint.ID}`, {
      URL: 'http://127.0.0.1:4001/b',
      EventTypes: ['product.updated'],
      Description: 'Catalog',
    });
    expect(changed.json().data).toMatchObject({
      URL: 'http://127.0.0.1:4001/b',
      EventTypes: ['product.updated'],
      Description: 'Catalog',
      Status: 'enabled',
    });
    expect((await call(t.app, op.adminKey, 'PATCH', `${admin}/${endpoint.ID}`, { Enabled: false })).json().data).toMatchObject({
      Status: 'disabled',
      DisabledReason: 'manual',
    });
    expect((await call(t.app, op.adminKey, 'PATCH', `${admin}/${endpoint.ID}`, { Enabled: true })).json().data).toMatchObject({
      Status: 'enabled',
      DisabledReason: null,
      DisabledAt: null,
    });
    problemOf(await call(t.app, op.adminKey, 'PATCH', `${admin}/${endpoint.ID}`, { URL: 'http://example.com/' }), 422, 'validation');
    const deleted = await call(t.app, op.adminKey, 'DELETE', `${admin}/${endpoint.ID}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    problemOf(await call(t.app, op.adminKey, 'GET', `${admin}/${endpoint.ID}`), 404, 'not-found');
    problemOf(await call(t.app, op.adminKey, 'DELETE', `${admin}/${endpoint.ID}`), 404, 'not-found');
  });

  it("another operator's endpoint is a 404 for every route", async () => {
    const endpoint = await addEndpoint(t, op.adminKey, { URL: 'http://localhost:4000/mine' });
    const other = await t.newOperator();
    for (const [method, path] of [
      ['GET', `${admin}/${endpoint.ID}`],
      ['PATCH', `${admin}/${endpoint.ID}`],
      ['DELETE', `${admin}/${endpoint.ID}`],
      ['POST', `${admin}/${endpoint.ID}/rotate-secret`],
      ['POST', `${admin}/${endpoint.ID}/test`],
      ['GET', `${admin}/${endpoint.ID}/deliveries`],
    ] as const) {
      problemOf(await call(t.app, other.adminKey, method, path, method === 'PATCH' ? { Description: 'x' } : undefined), 404, 'not-found');
    }
    expect((await call(t.app, other.adminKey, 'GET', admin)).json().data).toEqual([]);
    await call(t.app, op.adminKey, 'DELETE', `${admin}/${endpoint.ID}`);
  });

  it('needs the admin scope', async () => {
    problemOf(await call(t.app, undefined, 'GET', admin), 401, 'unauthenticated');
    problemOf(await call(t.app, op.usageKey, 'GET', admin), 403, 'forbidden');
    problemOf(await call(t.app, op.otaKey, 'GET', admin), 403, 'forbidden');
  });
});

describe("a marketplace's own endpoints (partner API)", () => {
  it("adds, lists and manages its own; never sees the operator's or another marketplace's", async () => {
    const own = await addEndpoint(t, op.otaKey, { URL: 'http://localhost:5000/viator' }, '/api/v2/ota/viator');
    expect(own).toMatchObject({ Partner: 'viator', EventTypes: ['*'] });
    const operators = await addEndpoint(t, op.adminKey, { URL: 'http://localhost:5000/operator' });
    const forViator = await addEndpoint(t, op.adminKey, {
      URL: 'http://localhost:5000/for-viator',
      Partner: 'viator',
      EventTypes: ['booking.cancelled'],
    });
    const gyg = (await t.db.write((tx) => createApiKey(tx, op.operatorId, { name: 'GYG', scopes: ['ota'], partner: 'getyourguide' }))).key;

    expect((await call(t.app, op.otaKey, 'GET', viator)).json().data.map((e: { ID: number }) => e.ID)).toEqual([own.ID, forViator.ID]);
    problemOf(await call(t.app, op.otaKey, 'GET', `${viator}/${operators.ID}`), 404, 'not-found');
    problemOf(await call(t.app, op.otaKey, 'DELETE', `${viator}/${operators.ID}`), 404, 'not-found');
    problemOf(await call(t.app, gyg, 'GET', `/api/v2/ota/getyourguide/webhooks/${own.ID}`), 404, 'not-found');
    problemOf(await call(t.app, gyg, 'GET', `${viator}/${own.ID}`), 403, 'forbidden');
    expect((await call(t.app, op.otaKey, 'PATCH', `${viator}/${forViator.ID}`, { EventTypes: ['booking.created'] })).statusCode).toBe(200);
    // The operator sees and manages the marketplaces' endpoints too.
    expect((await call(t.app, op.adminKey, 'GET', `${admin}/${own.ID}`)).json().data.Partner).toBe('viator');
    for (const id of [own.ID, operators.ID, forViator.ID]) expect((await call(t.app, op.adminKey, 'DELETE', `${admin}/${id}`)).statusCode).toBe(204);
  });

  // Issue 23, finding 7: the secret (on create and rotate) and deliveries (a guest's e-mail and phone).
  it('every answer of the webhook routes, partner and admin alike, is Cache-Control: no-store', async () => {
    const created = await call(t.app, op.otaKey, 'POST', viator, { URL: 'http://localhost:5000/cached', EventTypes: ['*'] });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.ID as number;
    const sent = await call(t.app, op.otaKey, 'POST', `${viator}/${id}/test`);
    const delivery = sent.json().data.ID as number;
    const answers = [
      created,
      sent,
      await call(t.app, op.otaKey, 'POST', `${viator}/${id}/rotate-secret`),
      await call(t.app, op.otaKey, 'GET', `${viator}/${id}/deliveries`),
      await call(t.app, op.otaKey, 'GET', `${viator}/${id}/deliveries/${delivery}`),
      await call(t.app, op.otaKey, 'GET', viator),
      await call(t.app, op.adminKey, 'POST', `${admin}/${id}/rotate-secret`),
      await call(t.app, op.adminKey, 'GET', `${admin}/${id}/deliveries/${delivery}`),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.raw.req.url).toBeLessThan(300);
      expect(answer.headers['cache-control'], answer.raw.req.url).toBe('no-store');
    }
    await call(t.app, op.adminKey, 'DELETE', `${admin}/${id}`);
  });

  it('only the types a marketplace receives; Partner is its own', async () => {
    const refused = problemOf(
      await call(t.app, op.otaKey, 'POST', viator, {
        URL: 'http://localhost:5000/x',
        EventTypes: ['booking.created', 'order.completed', 'usage.recorded'],
      }),
      422,
      'validation',
    );
    expect(refused.errors?.map((e) => e.field)).toEqual(['EventTypes[1]', 'EventTypes[2]']);
    problemOf(
      await call(t.app, op.otaKey, 'POST', viator, { URL: 'http://localhost:5000/x', EventTypes: ['*'], Partner: 'getyourguide' }),
      422,
      'validation',
    );
    problemOf(
      await call(t.app, op.adminKey, 'POST', admin, { URL: 'http://localhost:5000/x', EventTypes: ['waitlist.offered'], Partner: 'viator' }),
      422,
      'validation',
    );
    const types = (await call(t.app, op.otaKey, 'GET', `${viator}/event-types`)).json().data.map((e: { Type: string }) => e.Type);
    expect(types).toEqual([
      'booking.created',
      'booking.confirmed',
      'booking.cancelled',
      'booking.expired',
      'booking.updated',
      'availability.changed',
      'product.created',
      'product.updated',
      'product.archived',
    ]);
  });
});

describe('limits and settings', () => {
  it(`at most ${MAX_ENDPOINTS} endpoints per operator, its marketplaces' included, and ${MAX_MARKETPLACE_ENDPOINTS} per marketplace`, async () => {
    const owner = await t.newOperator();
    for (let i = 0; i < MAX_MARKETPLACE_ENDPOINTS; i++)
      await addEndpoint(t, owner.otaKey, { URL: `http://localhost:6000/m${i}` }, '/api/v2/ota/viator');
    problemOf(await call(t.app, owner.otaKey, 'POST', viator, { URL: 'http://localhost:6000/x', EventTypes: ['*'] }), 409, 'conflict');
    problemOf(
      await call(t.app, owner.adminKey, 'POST', admin, { URL: 'http://localhost:6000/x', EventTypes: ['*'], Partner: 'viator' }),
      409,
      'conflict',
    );
    for (let i = MAX_MARKETPLACE_ENDPOINTS; i < MAX_ENDPOINTS; i++) await addEndpoint(t, owner.adminKey, { URL: `http://localhost:6000/${i}` });
    problemOf(await call(t.app, owner.adminKey, 'POST', admin, { URL: 'http://localhost:6000/x', EventTypes: ['*'] }), 409, 'conflict');
  });

  it('the contact e-mail for notices: unset, set, checked, cleared', async () => {
    expect((await call(t.app, op.adminKey, 'GET', `${admin}/settings`)).json().data).toEqual({ ContactEmail: null });
    expect((await call(t.app, op.adminKey, 'PATCH', `${admin}/settings`, { ContactEmail: 'ops@example.com' })).json().data).toEqual({
      ContactEmail: 'ops@example.com',
    });
    expect(
      problemOf(await call(t.app, op.adminKey, 'PATCH', `${admin}/settings`, { ContactEmail: 'not-an-address' }), 422, 'validation').errors?.[0]
        ?.field,
    ).toBe('ContactEmail');
    expect((await call(t.app, op.adminKey, 'PATCH', `${admin}/settings`, { ContactEmail: null })).json().data).toEqual({ ContactEmail: null });
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/webhooks/settings'), 400, 'bad-request');
  });

  it('lists every event type, with which are opt-in', async () => {
    const types = (await call(t.app, op.adminKey, 'GET', `${admin}/event-types`)).json().data;
    expect(types.map((e: { Type: string }) => e.Type)).toEqual([...EVENT_TYPES]);
    expect(types.filter((e: { OptIn: boolean }) => e.OptIn).map((e: { Type: string }) => e.Type)).toEqual(['usage.recorded']);
  });
});

describe('secrets are never logged', () => {
  it('neither when created nor when rotated', async () => {
    const lines: string[] = [];
    const app = await buildApp({ db: t.db, config: t.app.config, logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } } });
    try {
      const created = await app.inject({
        method: 'POST',
        url: admin,
        headers: { authorization: `Bearer ${op.adminKey}` },
        payload: { URL: 'http://localhost:7000/x', EventTypes: ['*'] },
      });
      const rotated = await app.inject({
        method: 'POST',
        url: `${admin}/${created.json().data.ID}/rotate-secret`,
        headers: { authorization: `Bearer ${op.adminKey}` },
      });
      expect(lines.length).toBeGreaterThan(0);
      const log = lines.join('\n');
      expect(log).not.toContain(created.json().data.Secret);
      expect(log).not.toContain(rotated.json().data.Secret);
    } finally {
      await app.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it("has a webhooks section with each event's payload, and the endpoint routes", async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.webhooks)).toEqual([...EVENT_TYPES, 'webhook.test']);
    const created = document.webhooks['booking.created'].post;
    expect(created.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'header:webhook-id',
      'header:webhook-timestamp',
      'header:webhook-signature',
    ]);
    const body = created.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(body.properties.type.const).toBe('booking.created');
    expect(Object.keys(body.properties.data.properties)).toEqual(
      expect.arrayContaining(['BookingReference', 'Status', 'Source', 'Partner', 'Customer']),
    );
    expect(document.webhooks['availability.changed'].post.requestBody.content['application/json'].schema.properties.data.properties).toHaveProperty(
      'Available',
    );
    expect(document.webhooks['order.completed'].post.requestBody.content['application/json'].schema.properties.data.properties).not.toHaveProperty(
      'BasketToken',
    );
    expect(JSON.stringify(document.webhooks)).not.toContain('"$id"');
    expect(document.paths).toHaveProperty(['/api/v2/admin/webhooks/{ID}/deliveries/{DeliveryID}/replay']);
    expect(document.paths).toHaveProperty(['/api/v2/ota/{partner}/webhooks']);
  });

  it('lists Limit and Offset of the deliveries as optional, with their defaults (issue 23, finding 12)', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/api/v2/admin/webhooks/{ID}/deliveries', '/api/v2/ota/{partner}/webhooks/{ID}/deliveries']) {
      const query = (document.paths[path].get.parameters as { name: string; in: string; required?: boolean; schema: { default?: number } }[]).filter(
        (p) => p.in === 'query',
      );
      expect(
        query.map((p) => [p.name, p.required ?? false, p.schema.default]),
        path,
      ).toEqual([
        ['Status', false, undefined],
        ['EventType', false, undefined],
        ['Limit', false, 50],
        ['Offset', false, 0],
      ]);
    }
    // Left out, they are the defaults.
    const endpoint = await addEndpoint(t, op.adminKey, { URL: 'http://localhost:5000/paged' });
    for (let i = 0; i < 2; i++) await call(t.app, op.adminKey, 'POST', `${admin}/${endpoint.ID}/test`);
    expect((await call(t.app, op.adminKey, 'GET', `${admin}/${endpoint.ID}/deliveries`)).json().data).toHaveLength(2);
    expect((await call(t.app, op.adminKey, 'GET', `${admin}/${endpoint.ID}/deliveries?Limit=1&Offset=1`)).json().data).toHaveLength(1);
    await call(t.app, op.adminKey, 'DELETE', `${admin}/${endpoint.ID}`);
  });
});

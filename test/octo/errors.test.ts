// OCTo's error format on /octo, for the auth hook's errors too, while the partner API keeps RFC 7807.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity } from '../availability/fixtures.js';
import { octoClient, type OctoCall } from './fixtures.js';
import { assertOctoSchema, octoError } from './spec.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let activityId: string;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  octo = octoClient(t, op.otaKey);
  activityId = (await createActivity(t, op.adminKey)).ActivityID;
});
afterAll(() => t.close());

describe('authentication on /octo', () => {
  it('is 401 UNAUTHORIZED without a key, or with an unknown or revoked one', async () => {
    const none = await call(t.app, undefined, 'GET', '/octo/products');
    octoError(none, 401, 'UNAUTHORIZED');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    octoError(await call(t.app, 'sbk_AAAAAAAAAAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'GET', '/octo/supplier'), 401, 'UNAUTHORIZED');
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Gone', Scopes: ['ota'], Partner: 'gone' });
    await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/keys/${created.json().data.ID}`);
    octoError(await call(t.app, created.json().data.Key, 'GET', '/octo/products'), 401, 'UNAUTHORIZED');
  });

  it('is 403 FORBIDDEN for a key without the ota scope', async () => {
    octoError(await call(t.app, op.adminKey, 'GET', '/octo/products'), 403, 'FORBIDDEN');
    octoError(await call(t.app, op.usageKey, 'POST', '/octo/bookings', {}), 403, 'FORBIDDEN');
  });
});

describe('the OCTo error format', () => {
  it('answers unknown paths with 404 NOT_FOUND and wrong methods with 405 and Allow', async () => {
    const missing = await octo('GET', '/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', errorMessage: expect.any(String) });
    const wrong = await octo('DELETE', '/products');
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect(wrong.json().error).toBe('BAD_REQUEST');
  });

  it('names the id a schema error is about, and is BAD_REQUEST otherwise', async () => {
    octoError(await octo('POST', '/availability', { optionId: 'DEFAULT', localDate: '2030-01-01' }), 400, 'INVALID_PRODUCT_ID');
    octoError(await octo('POST', '/availability', { productId: activityId, localDate: '2030-01-01' }), 400, 'INVALID_OPTION_ID');
    const unit = octoError(
      await octo('POST', '/availability', { productId: activityId, optionId: 'DEFAULT', localDate: '2030-01-01', units: [{ id: 7, quantity: 1 }] }),
      400,
      'INVALID_UNIT_ID',
    );
    expect(unit.unitId).toBe('');
    octoError(await octo('GET', '/bookings/not-a-uuid'), 400, 'INVALID_BOOKING_UUID');
    const bad = octoError(
      await octo('POST', '/availability', { productId: activityId, optionId: 'DEFAULT', localDate: '2030-02-30' }),
      400,
      'BAD_REQUEST',
    );
    expect(bad.errorMessage).toMatch(/localDate/);
  });

  it('is BAD_REQUEST for malformed JSON and for a NUL character, never a 500', async () => {
    const malformed = await call(t.app, op.otaKey, 'POST', '/octo/availability', '{"productId":', { 'content-type': 'application/json' });
    octoError(malformed, 400, 'BAD_REQUEST');
    const nul = await octo('POST', '/availability', { productId: `${activityId}\u0000`, optionId: 'DEFAULT', localDate: '2030-01-01' });
    expect(nul.statusCode).toBe(400);
  });

  it("answers the router's own errors (an over-long or badly encoded path parameter) in OCTo's format too", async () => {
    octoError(await octo('GET', `/products/${'x'.repeat(300)}`), 400, 'BAD_REQUEST');
    octoError(await octo('GET', '/bookings/%E0%A4%A'), 400, 'BAD_REQUEST');
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${'x'.repeat(300)}`), 400, 'bad-request');
  });

  it('leaves the partner API on RFC 7807', async () => {
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/ota/viator/products'), 401, 'unauthenticated');
    problemOf(await call(t.app, op.otaKey, 'GET', '/api/v2/nothing'), 404, 'not-found');
    problemOf(
      await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/availability/s_DoesNotExist99/dates?StartDate=2030-01-01&EndDate=2030-01-02'),
      404,
      'not-found',
    );
  });

  it('documents the OCTo routes under the tag OCTo in /openapi.json', async () => {
    const spec = (await call(t.app, undefined, 'GET', '/openapi.json')).json();
    expect(spec.paths['/octo/bookings/{uuid}/confirm'].post.tags).toEqual(['OCTo']);
    expect(Object.keys(spec.paths).filter((path) => path.startsWith('/octo')).length).toBeGreaterThanOrEqual(11);
  });
});

describe('the OCTo document checker itself', () => {
  it('refuses bodies that are not OCTo, including a null where OCTo does not allow one', () => {
    expect(() => assertOctoSchema({ id: 'BK-1' }, 'Booking')).toThrow(/not a valid OCTo Booking/);
    expect(() => assertOctoSchema({ error: 'BAD_REQUEST' }, 'BaseError')).toThrow();
    expect(() => assertOctoSchema({ error: 'INVALID_PRODUCT_ID', errorMessage: 'x' }, 'ErrorInvalidProductID')).toThrow();
    expect(() => assertOctoSchema({ from: '08:00', to: null }, 'OpeningHours')).toThrow();
    expect(() => assertOctoSchema({ minUnits: null, maxUnits: 3 }, 'OptionRestrictions')).not.toThrow();
  });
});

describe('the rate limit on /octo', () => {
  it("answers 429 TOO_MANY_REQUESTS in OCTo's format", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const reseller = await limited.newOperator();
      const client = octoClient(limited, reseller.otaKey);
      expect((await client('GET', '/capabilities')).statusCode).toBe(200);
      expect((await client('GET', '/capabilities')).statusCode).toBe(200);
      const refused = await client('GET', '/capabilities');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'TOO_MANY_REQUESTS', errorMessage: expect.stringMatching(/Rate limit/) });
    } finally {
      await limited.close();
    }
  });
});

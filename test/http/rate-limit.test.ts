// The rate limits are keyed on what was verified: the public shop per client address (a made-up key in
// the Authorization header changes nothing), keyed routes per verified key, failed sign-ins per address.
// TRUST_PROXY decides whether the address is the peer's or the one a trusted proxy reports. (Several
// processes on one database: test/concurrency/processes-as-one.test.ts.)
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { buildTestApp, call, createTestApp, problemOf, type TestApp } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { openShopQuietly } from '../shop/fixtures.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A well-formed key that no operator has. */
const madeUpKey = () => `sbk_${randomBytes(12).toString('base64url')}_${randomBytes(32).toString('base64url')}`;

/** An app with `env`, an operator, and a shop path of one of its activities' day. */
async function shopApp(env: Record<string, string>) {
  t = await createTestApp(env);
  const op = await t.newOperator();
  await openShopQuietly(t, op.operatorId);
  const activity = await createActivity(t, op.adminKey, { Name: 'Shop Kayak' });
  const date = dateFromToday(3);
  await createTimeslot(t, op.adminKey, activity.ActivityID, { Date: date, Time: '10:00', Capacity: 5 });
  return { app: t.app, op, shopPath: `/api/v2/shop/${op.operatorId}/activities/${activity.ActivityID}/timeslots?Date=${date}` };
}

const shopStatuses = async (app: TestApp['app'], path: string, requests: { key?: string; from?: string; forwardedFor?: string }[]) => {
  const statuses: number[] = [];
  for (const { key, from = '127.0.0.1', forwardedFor } of requests) {
    const response = await app.inject({
      method: 'GET',
      url: path,
      remoteAddress: from,
      headers: { ...(key && { authorization: `Bearer ${key}` }), ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
};

describe('the public shop is limited per client address', () => {
  it('a made-up key in Authorization does not open a fresh bucket', async () => {
    const { app, shopPath } = await shopApp({ RATE_LIMIT_PER_MINUTE: '3' });
    const statuses = await shopStatuses(
      app,
      shopPath,
      Array.from({ length: 5 }, () => ({ key: madeUpKey() })),
    );
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('failed sign-ins are limited per client address', () => {
  it('past AUTH_FAILURE_LIMIT_PER_MINUTE: 429 with Retry-After for every keyed request from that address, before any key lookup; other addresses go on', async () => {
    t = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '4' });
    const op = await t.newOperator();
    await openShopQuietly(t, op.operatorId);
    const attempt = (key: string | undefined, from = '192.0.2.7') =>
      t!.app.inject({
        method: 'GET',
        url: '/api/v2/ota/viator/products',
        remoteAddress: from,
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
    for (const key of [madeUpKey(), madeUpKey(), undefined, `${op.otaKey.slice(0, -4)}AAAA`]) {
      problemOf(await attempt(key), 401, 'unauthenticated');
    }
    const limited = await attempt(madeUpKey());
    expect(problemOf(limited, 429, 'rate-limited').detail).toMatch(/failed sign-ins/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The address is refused even with a valid key until the window passes; the key works from elsewhere.
    problemOf(await attempt(op.otaKey), 429, 'rate-limited');
    expect((await attempt(op.otaKey, '192.0.2.8')).statusCode).toBe(200);
    problemOf(await attempt(madeUpKey(), '192.0.2.8'), 401, 'unauthenticated');
  });

  it('AUTH_FAILURE_LIMIT_PER_MINUTE=0 turns it off', async () => {
    t = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < 40; i++) problemOf(await call(t.app, madeUpKey(), 'GET', '/api/v2/ota/viator/products'), 401, 'unauthenticated');
  });
});

describe('keyed routes are limited per verified key', () => {
  it("each key has its own bucket; failed attempts with a key's public part do not use it up", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const op = await t.newOperator();
    await openShopQuietly(t, op.operatorId);
    const impostor = `${op.otaKey.slice(0, -4)}AAAA`; // the real lookup part, a wrong secret
    for (let i = 0; i < 3; i++) problemOf(await call(t.app, impostor, 'GET', '/api/v2/ota/viator/products'), 401, 'unauthenticated');
    const own = [];
    for (let i = 0; i < 3; i++) own.push((await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products')).statusCode);
    expect(own).toEqual([200, 200, 429]);
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/activities')).statusCode).toBe(200);
  });
});

describe('a route with a limit of its own (config.rateLimit)', () => {
  it('counts in buckets of its own, apart from the global limit of the same key', async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    const op = await t.newOperator();
    await openShopQuietly(t, op.operatorId);
    const app = await buildTestApp(t.db, { RATE_LIMIT_PER_MINUTE: '3' });
    try {
      app.get('/api/v2/ota/:partner/strict', { config: { scope: 'ota', rateLimit: { max: 1 } } }, async () => ({ ok: true }));
      await app.ready();
      const strict = [];
      for (let i = 0; i < 2; i++) strict.push((await call(app, op.otaKey, 'GET', '/api/v2/ota/viator/strict')).statusCode);
      expect(strict).toEqual([200, 429]);
      const global = [];
      for (let i = 0; i < 4; i++) global.push((await call(app, op.otaKey, 'GET', '/api/v2/ota/viator/products')).statusCode);
      expect(global).toEqual([200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  const fromBehindProxy = (n: number, proxy = '127.0.0.1') =>
    Array.from({ length: n }, (_, i) => ({ from: proxy, forwardedFor: `203.0.113.${i + 1}` }));

  it('unset: X-Forwarded-For is not believed; every guest behind a proxy is the proxy', async () => {
    const { app, shopPath } = await shopApp({ RATE_LIMIT_PER_MINUTE: '2' });
    expect(await shopStatuses(app, shopPath, fromBehindProxy(3))).toEqual([200, 200, 429]);
  });

  it('a hop count: the address the proxy reports is the client, with its own bucket', async () => {
    const { app, shopPath } = await shopApp({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' });
    expect(await shopStatuses(app, shopPath, fromBehindProxy(3))).toEqual([200, 200, 200]);
    const same = { from: '127.0.0.1', forwardedFor: '198.51.100.9' };
    expect(await shopStatuses(app, shopPath, [same, same, same])).toEqual([200, 200, 429]);
  });

  it('addresses and ranges: only a listed proxy is believed', async () => {
    const { app, shopPath } = await shopApp({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' });
    expect(await shopStatuses(app, shopPath, fromBehindProxy(3, '10.1.2.3'))).toEqual([200, 200, 200]);
    // A client that reaches the service directly cannot choose its address by sending the header itself.
    expect(await shopStatuses(app, shopPath, fromBehindProxy(3, '198.51.100.50'))).toEqual([200, 200, 429]);
  });

  it('refuses a setting that would let any client choose its address, and names a bad entry', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/10\.0\.0\.0\/33/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/proxy\.internal/);
    expect(loadConfig({ TRUST_PROXY: 'loopback,::1,fd00::/8' }).trustProxy).toEqual(['loopback', '::1', 'fd00::/8']);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});

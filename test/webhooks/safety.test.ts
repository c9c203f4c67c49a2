// Where webhooks may go. In every environment: no private, loopback, link-local or other special-purpose
// address, whether written in the URL or resolved from its host name, when saved and again at delivery
// (DNS rebinding: a name that resolved to a public address when saved and to 127.0.0.1 later is refused at
// delivery, and nothing reaches 127.0.0.1), unless WEBHOOK_ALLOWED_NETWORKS lists the network (for a
// marketplace's endpoints, WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS). In production https only; outside it,
// http to localhost too.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { loadConfig } from '../../src/config.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { parseNetworks, refusalOf, type Resolver } from '../../src/webhooks/endpoints/address.js';
import { createTransport } from '../../src/webhooks/deliveries/transport.js';
import { addressPolicies } from '../../src/webhooks/runtime.js';
import { dispatchEvents } from '../../src/webhooks/deliveries/dispatch.js';
import { runDueDeliveries } from '../../src/webhooks/deliveries/deliver.js';
import { addEndpoint, deliveryDeps, nowSeconds } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const tls = {
  key: readFileSync(new URL('./tls/hooks.test.key', import.meta.url), 'utf8'),
  cert: readFileSync(new URL('./tls/hooks.test.crt', import.meta.url), 'utf8'),
  host: 'hooks.test',
};

// DNS for the tests: names map to what the test says, changeable between save and delivery.
const dns = new Map<string, string[]>();
const lookups: string[] = [];
const resolve: Resolver = async (hostname) => {
  lookups.push(hostname);
  const addresses = dns.get(hostname);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

let prod: TestApp;
let op: TestOperator;
let local: Receiver;
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

beforeAll(async () => {
  prod = await createTestApp({ NODE_ENV: 'production', WEBHOOK_ALLOWED_NETWORKS: '' }, { webhooks: { resolve } });
  op = await prod.newOperator();
  local = await startReceiver();
});
afterAll(async () => {
  await prod.close();
  await local.close();
});

const create = (URL: string, key = op.adminKey) => call(prod.app, key, 'POST', '/api/v2/admin/webhooks', { URL, EventTypes: ['*'] });

describe('production: refused when saved', () => {
  it.each([
    ['http://hooks.example.com/in', 'https'],
    ['http://127.0.0.1:8080/hook', 'https'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://localhost/hook', 'loopback'],
    ['https://10.1.2.3/hook', 'private'],
    ['https://172.16.0.9/hook', 'private'],
    ['https://192.168.1.1/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://0.0.0.0/', 'is an unspecified address'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://192.0.2.10/', 'reserved'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[fd12:3456::1]/hook', 'unique-local'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://[::ffff:10.0.0.1]/hook', 'private'],
    // IPv4 written inside IPv6 is that IPv4 address (issue 23, finding 11).
    ['https://[::7f00:1]/', 'loopback'],
    ['https://[::ffff:0:a00:1]/', 'private'],
    ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'link-local'],
    ['https://0x7f.1/hook', 'loopback'],
    ['ftp://hooks.example.com/in', 'https'],
    ['https://user:pass@hooks.example.com/in', 'user name or password'],
    ['https://hooks.example.com/in#frag', 'fragment'],
    ['not a url', 'absolute URL'],
  ])('%s (%s)', async (url, why) => {
    dns.set('localhost', ['127.0.0.1', '::1']);
    const problem = problemOf(await create(url), 422, 'validation');
    expect(problem.errors).toEqual([{ field: 'URL', message: expect.stringContaining(why) }]);
  });

  it('names that resolve to a special-purpose address (any one of them), or to nothing', async () => {
    dns.set('intranet.example.com', ['10.0.0.5']);
    dns.set('mixed.example.com', ['93.184.216.34', '192.168.0.7']);
    expect(problemOf(await create('https://intranet.example.com/hook'), 422, 'validation').detail).toContain('10.0.0.5 is a private address');
    expect(problemOf(await create('https://mixed.example.com/hook'), 422, 'validation').detail).toContain('192.168.0.7');
    expect(problemOf(await create('https://nowhere.example.com/hook'), 422, 'validation').detail).toContain('does not resolve');
    // The same rules when the URL changes, and for a marketplace's own endpoint.
    dns.set('public.example.com', ['93.184.216.34']);
    const endpoint = await addEndpoint(prod, op.adminKey, { URL: 'https://public.example.com/hook' });
    problemOf(
      await call(prod.app, op.adminKey, 'PATCH', `/api/v2/admin/webhooks/${endpoint.ID}`, { URL: 'https://intranet.example.com/x' }),
      422,
      'validation',
    );
    problemOf(
      await call(prod.app, op.otaKey, 'POST', '/api/v2/ota/viator/webhooks', { URL: 'https://10.0.0.1/x', EventTypes: ['*'] }),
      422,
      'validation',
    );
    await call(prod.app, op.adminKey, 'DELETE', `/api/v2/admin/webhooks/${endpoint.ID}`);
  });
});

describe('production: checked again at delivery (DNS rebinding)', () => {
  it('a name that resolved to a public address when saved and to 127.0.0.1 when delivering is refused; nothing reaches 127.0.0.1', async () => {
    const port = new URL(local.url).port;
    dns.set('rebind.example.com', ['93.184.216.34']);
    const endpoint = await addEndpoint(prod, op.adminKey, { URL: `https://rebind.example.com:${port}/hook`, EventTypes: ['booking.created'] });
    dns.set('rebind.example.com', ['127.0.0.1']);
    const activityId = (await createActivity(prod, op.adminKey)).ActivityID;
    const slot = await createTimeslot(prod, op.adminKey, activityId, { Date: dateFromToday(5), Time: '10:00', Capacity: 5 });
    expect(
      (
        await call(prod.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
          ActivityID: activityId,
          Date: slot.Date,
          Time: slot.Time,
          Participants: 1,
          Customer: customer,
        })
      ).statusCode,
    ).toBe(201);
    lookups.length = 0;
    const now = nowSeconds();
    await dispatchEvents(prod.db, now);
    expect(await runDueDeliveries(prod.db, deliveryDeps(prod), now)).toMatchObject({ retrying: 1, delivered: 0 });
    expect(lookups).toEqual(['rebind.example.com']);
    const [delivery] = (await call(prod.app, op.adminKey, 'GET', `/api/v2/admin/webhooks/${endpoint.ID}/deliveries`)).json().data;
    expect(delivery).toMatchObject({ Status: 'pending', LastStatusCode: null });
    expect(delivery.LastError).toBe(
      'Refused: rebind.example.com: 127.0.0.1 is a loopback address, which webhooks may not reach unless WEBHOOK_ALLOWED_NETWORKS lists its network',
    );
    // A test event goes the same way.
    const test = (await call(prod.app, op.adminKey, 'POST', `/api/v2/admin/webhooks/${endpoint.ID}/test`)).json().data;
    expect(test).toMatchObject({ Status: 'failed', LastStatusCode: null });
    expect(test.LastError).toContain('loopback');
    expect(local.received).toHaveLength(0);
  });

  it('an address written in the URL is checked at delivery too (it never goes through DNS)', async () => {
    // Saved while allowed (an instance that allowed 127.0.0.0/8 then), delivered by a transport that does not.
    const transport = createTransport({ policies: addressPolicies(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '' })), resolve });
    const result = await transport.send(local.url.replace('http:', 'https:'), {}, '{}', 1000, 'operator');
    transport.close();
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining('127.0.0.1 is a loopback address') });
    expect(local.received).toHaveLength(0);
  });
});

describe('production: WEBHOOK_ALLOWED_NETWORKS', () => {
  it('lets webhooks reach a listed network, over https, to the checked address', async () => {
    const secure = await startReceiver('/hook', tls);
    const allowed = await createTestApp(
      { NODE_ENV: 'production', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, fd00::/8' },
      {
        webhooks: {
          resolve,
          transport: createTransport({ policies: addressPolicies(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })), resolve, ca: tls.cert }),
        },
      },
    );
    try {
      const owner = await allowed.newOperator();
      dns.set('hooks.test', ['127.0.0.1']);
      const endpoint = await addEndpoint(allowed, owner.adminKey, { URL: secure.url });
      secure.secrets = [endpoint.Secret];
      problemOf(
        await call(allowed.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'https://10.0.0.1/', EventTypes: ['*'] }),
        422,
        'validation',
      );
      const test = (await call(allowed.app, owner.adminKey, 'POST', `/api/v2/admin/webhooks/${endpoint.ID}/test`)).json().data;
      expect(test).toMatchObject({ Status: 'delivered', LastStatusCode: 204 });
      expect(secure.received[0]!.verifiedWith).toEqual([endpoint.Secret]);
      expect(secure.received[0]!.headers.host).toBe(new URL(secure.url).host);
    } finally {
      await allowed.close();
      await secure.close();
    }
  });

  it('is checked at start: a bad network stops it', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/33' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
    expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,192.168.1.5 fd00::/8' }).webhookAllowedNetworks).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'fd00::/8',
    ]);
  });
});

describe('the address rules', () => {
  const policy = { allowed: parseNetworks(['10.20.0.0/16', '::ffff:192.168.5.0/120']), setting: 'WEBHOOK_ALLOWED_NETWORKS' };
  it('public unicast only, but for allowed networks; IPv4 written as IPv6 is IPv4', () => {
    expect(refusalOf('93.184.216.34', policy)).toBeUndefined();
    expect(refusalOf('2606:2800:220:1:248:1893:25c8:1946', policy)).toBeUndefined();
    expect(refusalOf('10.20.3.4', policy)).toBeUndefined();
    expect(refusalOf('::ffff:10.20.3.4', policy)).toBeUndefined();
    expect(refusalOf('192.168.5.9', policy)).toBeUndefined();
    expect(refusalOf('10.21.0.1', policy)).toContain('private');
    expect(refusalOf('::ffff:127.0.0.1', policy)).toContain('loopback');
    expect(refusalOf('2002:a00:1::', policy)).toContain('special-purpose');
    expect(refusalOf('::1', policy)).toContain('is a loopback address');
    expect(refusalOf('::', policy)).toContain('is an unspecified address');
  });

  it('IPv4 inside IPv6 (compatible, mapped, translated, NAT64) follows the rules of the IPv4 address', () => {
    for (const loopback of ['::7f00:1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::7f00:1']) {
      expect(refusalOf(loopback, policy), loopback).toContain('(127.0.0.1) is a loopback address');
    }
    expect(refusalOf('::a9fe:a9fe', policy)).toContain('link-local');
    expect(refusalOf('64:ff9b::c0a8:101', policy)).toContain('private');
    // A public IPv4 address through NAT64 (an IPv6-only host) is a public address.
    expect(refusalOf('64:ff9b::5db8:d822', policy)).toBeUndefined();
    // Allowed networks count for the IPv4 address however it is written.
    expect(refusalOf('64:ff9b::a14:304', policy)).toBeUndefined();
    expect(refusalOf('::a14:304', policy)).toBeUndefined();
    // Where the IPv4 address sits is not known (a local NAT64 prefix), or the form is a tunnel's: refused.
    expect(refusalOf('64:ff9b:1::5db8:d822', policy)).toContain('special-purpose');
    expect(refusalOf('2002:5db8:d822::1', policy)).toContain('special-purpose');
    expect(refusalOf('2001:0:5db8:d822::1', policy)).toContain('special-purpose');
  });
});

// Issue 23, finding 6: a staging instance is not a developer's laptop. The rules are production's everywhere;
// loopback and private networks are reached only when the instance's settings list them, and a
// marketplace's endpoints (an ota key may point them anywhere) only by a setting of their own.
describe('outside production: the same rules unless a setting allows a network', () => {
  let receiver: Receiver;
  let plain: TestApp;
  let owner: TestOperator;
  // Names under .localhost may be http outside production; here they resolve to the receiver's address.
  const hooksUrl = () => receiver.url.replace('127.0.0.1', 'hooks.localhost');
  beforeAll(async () => {
    receiver = await startReceiver();
    dns.set('hooks.localhost', ['127.0.0.1']);
    plain = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS: '' }, { webhooks: { resolve } });
    owner = await plain.newOperator();
  });
  afterAll(async () => {
    await plain.close();
    await receiver.close();
  });
  const testSend = async (app: TestApp['app'], key: string, id: number, base = '/api/v2/admin') =>
    (await call(app, key, 'POST', `${base}/webhooks/${id}/test`)).json().data as {
      Status: string;
      LastStatusCode: number | null;
      LastError: string | null;
    };

  it('by default an ota key can neither register a loopback or private URL nor have one delivered to', async () => {
    for (const URL of [receiver.url, hooksUrl(), 'https://10.0.0.1/x', 'https://[::7f00:1]/x']) {
      const problem = problemOf(
        await call(plain.app, owner.otaKey, 'POST', '/api/v2/ota/viator/webhooks', { URL, EventTypes: ['*'] }),
        422,
        'validation',
      );
      expect(problem.errors).toEqual([{ field: 'URL', message: expect.stringMatching(/is a (loopback|private) address/) }]);
      // Nor the operator's own endpoints.
      problemOf(await call(plain.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL, EventTypes: ['*'] }), 422, 'validation');
    }
    // An endpoint saved while a setting allowed it (another process's view of the database) is refused at
    // connection: the test event fails, nothing reaches the receiver, no answer is read.
    const allowing = await buildTestApp(plain.db, { WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: '127.0.0.0/8' }, { webhooks: { resolve } });
    try {
      for (const URL of [receiver.url, hooksUrl()]) {
        const saved = await call(allowing, owner.otaKey, 'POST', '/api/v2/ota/viator/webhooks', { URL, EventTypes: ['*'] });
        expect(saved.statusCode, saved.body).toBe(201);
        const test = await testSend(plain.app, owner.otaKey, saved.json().data.ID, '/api/v2/ota/viator');
        expect(test).toMatchObject({ Status: 'failed', LastStatusCode: null, LastError: expect.stringContaining('127.0.0.1 is a loopback address') });
      }
    } finally {
      await allowing.close();
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("WEBHOOK_ALLOWED_NETWORKS lets the operator's endpoints reach a network, not a marketplace's", async () => {
    const t = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, { webhooks: { resolve } });
    const partnerAllowed = await buildTestApp(t.db, { WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: '127.0.0.0/8' }, { webhooks: { resolve } });
    try {
      const op = await t.newOperator();
      const own = await addEndpoint(t, op.adminKey, { URL: hooksUrl() });
      expect(await testSend(t.app, op.adminKey, own.ID)).toMatchObject({ Status: 'delivered', LastStatusCode: 204 });
      expect(receiver.received).toHaveLength(1);
      // A marketplace's endpoint, made by its key or by the operator for it (its key may change the URL).
      problemOf(await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/webhooks', { URL: hooksUrl(), EventTypes: ['*'] }), 422, 'validation');
      problemOf(
        await call(t.app, op.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: hooksUrl(), EventTypes: ['*'], Partner: 'viator' }),
        422,
        'validation',
      );
      problemOf(await call(t.app, op.otaKey, 'PATCH', `/api/v2/ota/viator/webhooks/${own.ID}`, { URL: hooksUrl() }), 404, 'not-found');
      // One saved elsewhere is refused when delivered, though a connection to the same host and port is
      // open for the operator's endpoint: a marketplace's request never reuses it.
      const theirs = (await call(partnerAllowed, op.otaKey, 'POST', '/api/v2/ota/viator/webhooks', { URL: hooksUrl(), EventTypes: ['*'] })).json()
        .data;
      expect(await testSend(t.app, op.otaKey, theirs.ID, '/api/v2/ota/viator')).toMatchObject({
        Status: 'failed',
        LastError: expect.stringContaining('loopback'),
      });
      expect(receiver.received).toHaveLength(1);
    } finally {
      receiver.clear();
      await partnerAllowed.close();
      await t.close();
    }
  });

  it("WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS lets a marketplace's endpoints reach a network", async () => {
    const t = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS: '', WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: '127.0.0.0/8' }, { webhooks: { resolve } });
    try {
      const op = await t.newOperator();
      const theirs = await addEndpoint(t, op.otaKey, { URL: hooksUrl() }, '/api/v2/ota/viator');
      expect(await testSend(t.app, op.otaKey, theirs.ID, '/api/v2/ota/viator')).toMatchObject({ Status: 'delivered', LastStatusCode: 204 });
      // The operator's own endpoints keep their own setting.
      problemOf(await call(t.app, op.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: hooksUrl(), EventTypes: ['*'] }), 422, 'validation');
      expect(receiver.received).toHaveLength(1);
    } finally {
      receiver.clear();
      await t.close();
    }
  });

  it('WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS is checked at start', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS: 'localhost' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS/);
  });
});

describe('outside production', () => {
  it('http to localhost is fine (once its network is allowed), http elsewhere is not', async () => {
    const dev = await createTestApp({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1' });
    try {
      const owner = await dev.newOperator();
      expect(
        (await call(dev.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'http://localhost:8080/hook', EventTypes: ['*'] })).statusCode,
      ).toBe(201);
      expect(
        (await call(dev.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'http://127.0.0.1:8080/hook', EventTypes: ['*'] })).statusCode,
      ).toBe(201);
      expect(
        (await call(dev.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'http://[::1]:8080/hook', EventTypes: ['*'] })).statusCode,
      ).toBe(201);
      problemOf(
        await call(dev.app, owner.adminKey, 'POST', '/api/v2/admin/webhooks', { URL: 'http://hooks.example.com/', EventTypes: ['*'] }),
        422,
        'validation',
      );
    } finally {
      await dev.close();
    }
  });
});

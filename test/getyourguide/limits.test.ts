// /gyg under the instance's limits: the request limit per connection once its credentials are verified,
// and wrong credentials counted per client address with failed API-key sign-ins. GYG's answers stay
// HTTP 200 with its error codes, before and after either limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { berlin, connect, day, mappedActivity, type Gyg, type Product } from './fixtures.js';

const REQUESTS_PER_MINUTE = 40;
const FAILURES_PER_MINUTE = 5;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: String(REQUESTS_PER_MINUTE), AUTH_FAILURE_LIMIT_PER_MINUTE: String(FAILURES_PER_MINUTE) });
});
afterAll(() => t.close());

const availabilityPath = (product: Product) =>
  `/gyg/1/get-availabilities/?productId=${product.productId}&fromDateTime=${encodeURIComponent(berlin(day(3), '00:00'))}&toDateTime=${encodeURIComponent(berlin(day(3), '23:59'))}`;

/** A GET of the product's availability from `address` with `credentials` (user:password). */
async function availability(product: Product, credentials: string, address = '127.0.0.1') {
  const response = await t.app.inject({
    method: 'GET',
    url: availabilityPath(product),
    remoteAddress: address,
    headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.json(), retryAfter: response.headers['retry-after'] };
}

async function connected(): Promise<{ op: TestOperator; gyg: Gyg; product: Product; credentials: string }> {
  const op = await t.newOperator();
  const gyg = await connect(t, op);
  const product = await mappedActivity(t, op, 6);
  return { op, gyg, product, credentials: `${gyg.username}:${gyg.password}` };
}

describe("the instance's request limit", () => {
  it(`answers at most RATE_LIMIT_PER_MINUTE requests a minute per connection, then INTERNAL_SYSTEM_FAILURE at HTTP 200`, async () => {
    const first = await connected();
    const answers = [];
    for (let i = 0; i < REQUESTS_PER_MINUTE * 2; i++) answers.push(await availability(first.product, first.credentials));
    const served = answers.filter((a) => 'data' in a.body);
    const refused = answers.filter((a) => 'errorCode' in a.body);
    expect(served.length).toBeLessThanOrEqual(REQUESTS_PER_MINUTE);
    expect(served.length).toBeGreaterThan(REQUESTS_PER_MINUTE / 2);
    expect(refused.length).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE);
    expect(refused[0]!.body).toEqual({ errorCode: 'INTERNAL_SYSTEM_FAILURE', errorMessage: expect.stringMatching(/rate limit.*retry/i) });
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(0);
    // Per connection: another supplier's connection, from the same address, is still answered.
    const second = await connected();
    expect('data' in (await availability(second.product, second.credentials)).body).toBe(true);
  });
});

describe('wrong credentials', () => {
  it('count per client address: past the limit nothing is looked up, valid credentials from that address included', async () => {
    const { gyg, product, credentials } = await connected();
    const attacker = '203.0.113.50';
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      const wrong = await availability(product, `${gyg.username}:guess-${i}`, attacker);
      expect(wrong.body).toEqual({ errorCode: 'AUTHORIZATION_FAILURE', errorMessage: expect.stringMatching(/user name or password is wrong/) });
    }
    const past = await availability(product, `gyg_madeupname0000:guess`, attacker);
    expect(past.body).toEqual({
      errorCode: 'AUTHORIZATION_FAILURE',
      errorMessage: expect.stringMatching(/Too many failed sign-ins from this address/),
    });
    expect(Number(past.retryAfter)).toBeGreaterThan(0);
    const valid = await availability(product, credentials, attacker);
    expect(valid.body).toMatchObject({ errorCode: 'AUTHORIZATION_FAILURE', errorMessage: expect.stringMatching(/Too many failed sign-ins/) });
    // GetYourGuide, calling from elsewhere, is unaffected.
    expect('data' in (await availability(product, credentials, '198.51.100.7')).body).toBe(true);
    // One count per address with failed API keys: the address's made-up keys are refused at once too.
    const key = await t.app.inject({
      method: 'GET',
      url: '/api/v2/ota/viator/products',
      remoteAddress: attacker,
      headers: { authorization: 'Bearer sbk_madeup_key' },
    });
    expect(key.statusCode).toBe(429);
  });
});

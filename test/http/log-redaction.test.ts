// The server log of real requests (the app's own pino logger at info, captured) holds no secret and no
// guest's personal data: no API key, no basket token, no searched e-mail address, no header, no body
// (issue 11, finding 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { redactUrl } from '../../src/http/log-redaction.js';
import { openShop } from '../shop/fixtures.js';

let t: TestApp;
let op: TestOperator;
let lines: string[] = [];
const log = () => lines.join('');

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
  op = await t.newOperator();
  await openShop(t, op.adminKey);
});
afterAll(() => t.close());

const guest = { FirstName: 'Grace', LastName: 'Hopperfield', Email: 'grace.hopper@example.com', Phone: '+15551234567' };

describe('the server log', () => {
  it('logs requests by redacted URL, without keys, tokens, searched e-mail addresses, headers or bodies', async () => {
    lines = [];
    const kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
    const date = dateFromToday(9);
    await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 20 });
    const shop = `/api/v2/shop/${op.operatorId}`;

    const basket = await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: guest });
    expect(basket.statusCode).toBe(201);
    const token = basket.json().data.BasketToken as string;
    expect(
      (await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/items`, { ActivityID: kayak, Date: date, Time: '10:00', Participants: 2 }))
        .statusCode,
    ).toBe(201);
    expect((await call(t.app, undefined, 'GET', `${shop}/baskets/${token}`)).statusCode).toBe(200);
    const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${token}/checkout`, {
      Payment: { Provider: 'test', CardNumber: '4242424242424242' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // A route that does not exist, under a basket token, and one with the token in its query.
    expect((await call(t.app, undefined, 'GET', `${shop}/baskets/${token}/nothing`)).statusCode).toBe(404);
    await call(t.app, undefined, 'GET', `${shop}/activities/${kayak}/timeslots?Date=${date}&token=${token}`);

    // The operator searches for the guest by e-mail address, by name, and by phone.
    for (const search of [guest.Email, 'Hopperfield', guest.Phone]) {
      const found = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?Search=${encodeURIComponent(search)}&Limit=5`);
      expect(found.statusCode).toBe(200);
    }
    await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?search=${guest.Email}`);
    await call(t.app, op.adminKey, 'GET', `/api/v2/admin/waitlists?Email=${encodeURIComponent(guest.Email)}`);
    // A new key is answered once and never logged; keys and cookies in headers are never logged.
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Reporting', Scopes: ['usage:read'] });
    const newKey = created.json().data.Key as string;
    await call(t.app, newKey, 'GET', '/api/v2/usage/meters?from=2026-01-01&to=2026-01-02', undefined, { cookie: 'session=cookie-secret-42' });
    await call(t.app, `${newKey.slice(0, -4)}AAAA`, 'GET', '/api/v2/ota/viator/products');
    await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/products?key=${op.otaKey}`);
    // An unexpected error's message, as the error handler would log it.
    t.app.log.error({ err: new Error(`SMTP refused <${guest.Email}> for key ${op.adminKey}`) }, 'unhandled error');

    const text = log();
    const secrets = [
      token,
      op.adminKey,
      op.otaKey,
      op.usageKey,
      newKey,
      op.adminKey.slice(-43),
      newKey.slice(-43),
      guest.Email,
      'grace.hopper%40example.com',
      'Hopperfield',
      guest.Phone,
      '15551234567',
      '4242424242424242',
      'cookie-secret-42',
    ];
    for (const secret of secrets) expect(text, `the log holds ${secret}`).not.toContain(secret);
    expect(text.toLowerCase()).not.toMatch(/authorization|bearer|"cookie"|"headers"|"body"/);

    // It still says what happened, by route and outcome.
    const entries = lines.map((line) => JSON.parse(line) as { req?: { url: string }; res?: { statusCode: number }; err?: { message: string } });
    const urls = entries.flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toContain(`${shop}/baskets/[redacted]/checkout`);
    expect(urls).toContain(`${shop}/baskets/[redacted]/nothing`);
    expect(urls).toContain('/api/v2/admin/bookings?Search=[redacted]&Limit=5');
    expect(urls).toContain(`${shop}/activities/${kayak}/timeslots?Date=${date}&token=[redacted]`);
    expect(entries.filter((entry) => entry.res).length).toBe(urls.length);
    expect(entries.find((entry) => entry.err)?.err?.message).toBe(`SMTP refused <[redacted]> for key ${op.adminKey.slice(0, 20)}_[redacted]`);
  });
});

describe('redactUrl', () => {
  it('keeps what names the resource and replaces what is secret or personal', () => {
    expect(redactUrl('/api/v2/ota/viator/booking/BK-7KQ2MX9P', '/api/v2/ota/:partner/booking/:BookingReference')).toBe(
      '/api/v2/ota/viator/booking/BK-7KQ2MX9P',
    );
    expect(redactUrl('/api/v2/shop/1/waitlists/confirm/abc', '/api/v2/shop/:OperatorID/waitlists/confirm/:ConfirmationCode')).toBe(
      '/api/v2/shop/1/waitlists/confirm/[redacted]',
    );
    expect(redactUrl('/x?Name=Sunset%20Kayak&Date=2026-05-01&q=ada&Phone=%2B4912345678&to=a%40b.c')).toBe(
      '/x?Name=Sunset%20Kayak&Date=2026-05-01&q=[redacted]&Phone=[redacted]&to=[redacted]',
    );
    expect(redactUrl('/%E0%A4%A?Search=%')).toBe('/%E0%A4%A?Search=[redacted]');
  });
});

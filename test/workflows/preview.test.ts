// The workflow preview: rendered by the sending renderer with the sending values, for the operator's
// newest confirmed booking (or one named), else a labelled sample; guest text stays plain text; unknown
// placeholders are a 422 naming the field; nothing is stored.
import { MANAGE_LINK_IN_PREVIEW } from '../../src/workflows/preview.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, posBooking } from '../emails/fixtures.js';
import { as, userSession } from '../staff/fixtures.js';

let t: TestApp;
let op: TestOperator;
const date = dateFromToday(5);
const slot = { ActivityID: '', Date: date, Time: '10:00' };
const SUBJECT = 'Your {{ActivityName}} on {{Date}}';
const BODY = 'Hello {{FirstName}} {{LastName}},\n{{Participants}} people, {{Time}}, ref {{BookingReference}}.\n{{OperatorName}}';

const preview = (body: Record<string, unknown>, key = op.adminKey) => call(t.app, key, 'POST', '/api/v2/admin/workflows/preview', body);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Fjord Kayaks');
  slot.ActivityID = (await createActivity(t, op.adminKey, { Name: 'Fjord Paddle', MaxParticipantsPerBooking: 10 })).ActivityID;
  await createTimeslot(t, op.adminKey, slot.ActivityID, { ...slot, Capacity: 50 });
});
afterAll(() => t.close());

describe('workflow preview', () => {
  it('renders a clearly labelled sample while the operator has no booking', async () => {
    const response = await preview({ Subject: SUBJECT, Body: BODY });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      Sample: true,
      BookingReference: null,
      To: null,
      Subject: 'Your Sample activity on 2030-06-01',
      Body: 'Hello Alex Sample,\n2 people, 10:00, ref BK-SAMPLE00.\nFjord Kayaks',
    });
  });

  it('renders for the newest confirmed booking exactly what sending queues for it, guest text as plain text', async () => {
    const workflow = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
      Name: 'Thanks',
      Event: 'booking-confirmed',
      Subject: SUBJECT,
      Body: BODY,
    });
    expect(workflow.statusCode).toBe(201);
    const older = await posBooking(t, op.adminKey, slot, 1, customer('Older'));
    const hostile = { ...customer('<img src=x onerror=alert(1)>', 'guest@example.com'), LastName: '{{OperatorName}} & "Co"' };
    const newest = await posBooking(t, op.adminKey, slot, 3, hostile);
    const data = (await preview({ Subject: SUBJECT, Body: BODY })).json().data;
    expect(data).toMatchObject({ Sample: false, BookingReference: newest.BookingReference, To: 'guest@example.com' });
    // Guest text is inserted as it is, once: a placeholder typed by the guest is not expanded, nothing is escaped into markup.
    expect(data.Body).toBe(
      `Hello <img src=x onerror=alert(1)> {{OperatorName}} & "Co",\n3 people, 10:00, ref ${newest.BookingReference}.\nFjord Kayaks`,
    );
    const queued = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/emails?WorkflowID=${workflow.json().data.ID}`)).json().data;
    const sent = queued.find((e: { BookingReference: string }) => e.BookingReference === newest.BookingReference);
    expect({ Subject: sent.Subject, Body: sent.Body }).toEqual({ Subject: data.Subject, Body: data.Body });

    // A named booking, a cancelled one newer than it does not become the default.
    const named = (await preview({ Subject: SUBJECT, Body: '{{FirstName}}', BookingReference: older.BookingReference })).json().data;
    expect(named).toMatchObject({ Sample: false, BookingReference: older.BookingReference, Body: 'Older' });
    // The guest's manage link is a capability made only when the e-mail is sent: the preview names it.
    const link = (await preview({ Subject: 'x', Body: 'Manage: {{ManageBookingUrl}}' })).json().data;
    expect(link.Body).toBe(`Manage: ${MANAGE_LINK_IN_PREVIEW}`);
    const cancelled = await posBooking(t, op.adminKey, slot, 1, customer('Gone'));
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${cancelled.BookingReference}/cancel`);
    expect((await preview({ Subject: 'x', Body: '{{FirstName}}' })).json().data.Body).toBe(hostile.FirstName);
  });

  it('names each field with an unknown placeholder (422) and stores nothing', async () => {
    const before = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Limit=1')).json().data[0]?.ID;
    const bad = problemOf(await preview({ Subject: 'Hi {{Nickname}}', Body: 'On {{Dat}} and {{Date}}' }), 422, 'validation');
    expect(bad.errors?.map((e) => e.field)).toEqual(['Subject', 'Body']);
    expect(bad.errors?.[1]?.message).toContain('{{Dat}}');
    problemOf(await preview({ Subject: 'x' }), 422, 'validation');
    problemOf(await preview({ Subject: 'x', Body: 'y'.repeat(20_001) }), 422, 'validation');
    problemOf(await preview({ Subject: 'x', Body: 'y', BookingReference: 'nope' }), 422, 'validation');
    problemOf(await preview({ Subject: 'x', Body: 'y', BookingReference: 'BK-ABCDEFGH' }), 404, 'not-found');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Limit=1')).json().data[0]?.ID).toBe(before);
  });

  it("never renders another operator's booking", async () => {
    const other = await t.newOperator('Elsewhere');
    const mine = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings?Limit=1')).json().data[0].BookingReference;
    problemOf(await preview({ Subject: 'x', Body: '{{FirstName}}', BookingReference: mine }, other.adminKey), 404, 'not-found');
    expect((await preview({ Subject: 'x', Body: '{{FirstName}}' }, other.adminKey)).json().data).toMatchObject({ Sample: true, Body: 'Alex' });
  });

  it('needs workflows:read: a manager previews, front desk gets 403; a signed-in preview needs the CSRF header', async () => {
    const manager = await userSession(t, op.operatorId, 'manager');
    expect((await as(t, manager, 'POST', '/api/v2/admin/workflows/preview', { Subject: 'x', Body: 'y' })).statusCode).toBe(200);
    problemOf(
      await as(t, await userSession(t, op.operatorId, 'front-desk'), 'POST', '/api/v2/admin/workflows/preview', { Subject: 'x', Body: 'y' }),
      403,
      'forbidden',
    );
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: '/api/v2/admin/workflows/preview',
      headers: { cookie: manager.cookie },
      payload: { Subject: 'x', Body: 'y' },
    });
    expect(noCsrf.statusCode).toBe(403);
  });
});

// Walk-ins at the desk (issue 26, item 8), over HTTP on a real database: a point-of-sale booking needs only
// a first name (last name, e-mail and phone are stored empty and nothing is e-mailed to nobody), while the
// partner API and waitlists keep asking for an address; what is given is still checked, and the refusal
// reads as a sentence naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
const date = dateFromToday(5);

const pos = (Customer: Record<string, string>) =>
  call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', { ActivityID: activityId, Date: date, Time: '10:00', Participants: 1, Customer });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey)).ActivityID;
  await createTimeslot(t, op.adminKey, activityId, { Date: date, Time: '10:00', Capacity: 10 });
  // An active confirmation workflow: the walk-in's booking must not queue an e-mail to an empty address.
  const workflow = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/workflows', {
    Name: 'Confirmation',
    Event: 'booking-confirmed',
    Subject: 'See you',
    Body: 'Hello {{FirstName}}',
  });
  expect(workflow.statusCode, workflow.body).toBe(201);
});
afterAll(() => t.close());

describe('a walk-in at the desk', () => {
  it('books with a first name alone; the rest is stored empty and no e-mail is queued for it', async () => {
    const response = await pos({ FirstName: 'Maria' });
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking.Customer).toEqual({ FirstName: 'Maria', LastName: '', Email: '', Phone: '' });
    expect(booking.Status).toBe('confirmed');

    const withAddress = await pos({ FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com' });
    expect(withAddress.statusCode, withAddress.body).toBe(201);
    const emails = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/emails?Limit=500')).json().data as {
      To: string;
      BookingReference: string;
    }[];
    expect(emails.map((email) => email.BookingReference)).toContain(withAddress.json().data.BookingReference);
    expect(emails.map((email) => email.BookingReference)).not.toContain(booking.BookingReference);
    expect(emails.every((email) => email.To !== '')).toBe(true);
  });

  it('still checks what is given, and says so in a sentence naming the field (422, nothing written)', async () => {
    const before = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings?Limit=100')).json().data.length;
    const refused = problemOf(await pos({ FirstName: 'Maria', Email: 'maria at home', Phone: '0123' }), 422, 'validation');
    expect(refused.errors).toEqual(
      expect.arrayContaining([
        { field: 'Customer.Email', message: 'Customer.Email must be an e-mail address, such as ada@example.com' },
        expect.objectContaining({ field: 'Customer.Phone' }),
      ]),
    );
    const nameless = problemOf(await pos({ LastName: 'Nobody' }), 422, 'validation');
    expect(nameless.errors).toEqual([{ field: 'Customer.FirstName', message: 'Customer.FirstName is required' }]);
    problemOf(await pos({ FirstName: '' }), 422, 'validation');
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings?Limit=100')).json().data.length).toBe(before);
  });

  it('leaves the partner API and waitlists asking for an e-mail address', async () => {
    const partner = problemOf(
      await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
        ActivityID: activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: { FirstName: 'Maria', LastName: 'Walk', Phone: '+4915112345678' },
      }),
      422,
      'validation',
    );
    expect(partner.errors).toEqual([{ field: 'Customer.Email', message: 'Customer.Email is required' }]);
    const waitlist = problemOf(
      await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/waitlists`, {
        ActivityID: activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: { FirstName: 'Maria' },
      }),
      422,
      'validation',
    );
    expect(waitlist.errors!.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining(['Customer.Email']));
  });
});

// What a booking owes and the desk's payments (issue 25, items 6 and 7): a point-of-sale booking records how
// it was paid (cash, card terminal, voucher, invoice, unpaid), staff record later payments up to what is
// due (never more, also when requests race), AmountDue and PaymentState on the booking, the bookings list's
// PaymentState filter, and the manifest's amounts due.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { as, userSession } from '../staff/fixtures.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let kayak: string;
let tea: string;
let timeslotId: number;
const date = dateFromToday(12);

const posBook = (body: Record<string, unknown>, ActivityID = kayak, Time = '10:00', key = op.adminKey) =>
  call(t.app, key, 'POST', '/api/v2/admin/bookings', { ActivityID, Date: date, Time, Participants: 2, Customer: customer(), ...body });
const pay = (reference: string, body: Record<string, unknown>, key = op.adminKey) =>
  call(t.app, key, 'POST', `/api/v2/admin/bookings/${reference}/payments`, body);
const read = async (reference: string) => {
  const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
async function booked(body: Record<string, unknown>, ActivityID = kayak): Promise<string> {
  const response = await posBook(body, ActivityID);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.BookingReference;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
  await openShop(t, op.adminKey);
  kayak = (await createActivity(t, op.adminKey, { Name: 'Kayak', UnitPrice: 4500, Currency: 'EUR' })).ActivityID;
  tea = (await createActivity(t, op.adminKey, { Name: 'Tea', UnitPrice: 1500, Currency: 'JPY', Timezone: 'Asia/Tokyo' })).ActivityID;
  timeslotId = (await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '10:00', Capacity: 500 })).ID;
  await createTimeslot(t, op.adminKey, kayak, { Date: date, Time: '12:00', Capacity: 500 });
  await createTimeslot(t, op.adminKey, tea, { Date: date, Time: '10:00', Capacity: 500 });
});
afterAll(() => t.close());

describe('a point-of-sale booking records how it was paid', () => {
  it('cash for the whole price by default: paid, nothing due, the payment listed with its method', async () => {
    const response = await posBook({ Payment: { Method: 'cash' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ Total: 9000, AmountPaid: 9000, AmountDue: 0, PaymentState: 'paid' });
    const booking = await read(response.json().data.BookingReference);
    expect(booking).toMatchObject({ AmountPaid: 9000, AmountDue: 0, PaymentState: 'paid', AmountRefunded: 0 });
    expect(booking.Payments).toEqual([
      expect.objectContaining({
        Amount: '90.00',
        AmountMinorUnits: 9000,
        Currency: 'EUR',
        Provider: 'desk',
        Method: 'cash',
        Status: 'succeeded',
        BookingOnly: true,
      }),
    ]);
  });

  it('a card terminal with its reference for part: part_paid with the rest due', async () => {
    const reference = await booked({ Payment: { Method: 'card_terminal', Amount: '20', Reference: 'RCPT-881' } });
    const booking = await read(reference);
    expect(booking).toMatchObject({ AmountPaid: 2000, AmountDue: 7000, PaymentState: 'part_paid' });
    expect(booking.Payments[0]).toMatchObject({ Method: 'card_terminal', ProviderReference: 'RCPT-881', Amount: '20.00' });
  });

  it('unpaid and no Payment at all: unpaid, the whole price due, no payment row', async () => {
    for (const body of [{ Payment: { Method: 'unpaid' } }, {}]) {
      const booking = await read(await booked(body));
      expect(booking).toMatchObject({ AmountPaid: 0, AmountDue: 9000, PaymentState: 'unpaid', Payments: [] });
    }
  });

  it('an invoice is owed until paid: a pending payment, the price still due; paying it with Method invoice settles that invoice', async () => {
    const reference = await booked({ Payment: { Method: 'invoice', Reference: 'INV-2026-07' } });
    let booking = await read(reference);
    expect(booking).toMatchObject({ AmountPaid: 0, AmountDue: 9000, PaymentState: 'unpaid' });
    expect(booking.Payments).toEqual([
      expect.objectContaining({ Method: 'invoice', Status: 'pending', Amount: '90.00', ProviderReference: 'INV-2026-07' }),
    ]);
    const paid = await pay(reference, { Method: 'invoice' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data).toMatchObject({ AmountDue: 0, PaymentState: 'paid', Payment: { Method: 'invoice', Status: 'succeeded' } });
    booking = await read(reference);
    expect(booking.Payments).toHaveLength(1);
    expect(booking).toMatchObject({ AmountPaid: 9000, AmountDue: 0, PaymentState: 'paid' });
  });

  it('refuses what cannot be: no booking is made (409 over the price, 422 without a reference, bad amounts)', async () => {
    const before = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${date}&To=${date}&Limit=500`)).json().data.length;
    const over = problemOf(await posBook({ Payment: { Method: 'cash', Amount: '90.01' } }), 409, 'conflict');
    expect(over.errors?.[0]?.field).toBe('Payment.Amount');
    expect(over.detail).toContain('90.00 EUR');
    const noReference = problemOf(await posBook({ Payment: { Method: 'voucher' } }), 422, 'validation');
    expect(noReference.errors?.map((e: { field: string }) => e.field)).toEqual(['Payment.Reference']);
    expect(
      problemOf(await posBook({ Payment: { Method: 'card_terminal', Amount: '1.001', Reference: 'x' } }), 422, 'validation').errors?.[0]?.field,
    ).toBe('Payment.Amount');
    expect(problemOf(await posBook({ Payment: { Method: 'cash', Amount: '0' } }), 422, 'validation').errors?.[0]?.field).toBe('Payment.Amount');
    expect(problemOf(await posBook({ Payment: { Method: 'unpaid', Amount: '5' } }), 422, 'validation').errors?.[0]?.field).toBe('Payment.Amount');
    expect((await posBook({ Payment: { Method: 'bitcoin' } })).statusCode).toBe(422);
    const after = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${date}&To=${date}&Limit=500`)).json().data.length;
    expect(after).toBe(before);
  });

  it('JPY: whole yen, no decimals', async () => {
    const reference = await booked({ Payment: { Method: 'cash', Amount: '1000' } }, tea);
    expect(await read(reference)).toMatchObject({ Total: 3000, AmountPaid: 1000, AmountDue: 2000, PaymentState: 'part_paid', Currency: 'JPY' });
    expect(problemOf(await pay(reference, { Method: 'cash', Amount: '10.5' }), 422, 'validation').errors?.[0]?.field).toBe('Amount');
    const rest = await pay(reference, { Method: 'cash' });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().data).toMatchObject({
      Payment: { Amount: '2000', AmountMinorUnits: 2000, Currency: 'JPY' },
      AmountDue: 0,
      PaymentState: 'paid',
    });
  });
});

describe('staff record later payments', () => {
  it('the balance at check-in: part, then the rest, then 409 (nothing due), with audit entries', async () => {
    const reference = await booked({ Payment: { Method: 'cash', Amount: '30' } });
    const part = await pay(reference, { Method: 'card_terminal', Amount: '10.50', Reference: 'T-1' });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json().data).toMatchObject({ BookingReference: reference, AmountPaid: 4050, AmountDue: 4950, PaymentState: 'part_paid' });
    const tooMuch = problemOf(await pay(reference, { Method: 'cash', Amount: '49.51' }), 409, 'conflict');
    expect(tooMuch.errors?.[0]?.field).toBe('Amount');
    expect(tooMuch.detail).toContain('49.50 EUR');
    const rest = await pay(reference, { Method: 'cash' });
    expect(rest.json().data).toMatchObject({ Payment: { Amount: '49.50' }, AmountDue: 0, PaymentState: 'paid' });
    const none = problemOf(await pay(reference, { Method: 'cash', Amount: '1' }), 409, 'conflict');
    expect(none.detail).toMatch(/Nothing is due/);
    const booking = await read(reference);
    expect(booking.Payments.map((p: { AmountMinorUnits: number; Method: string }) => [p.Method, p.AmountMinorUnits])).toEqual([
      ['cash', 3000],
      ['card_terminal', 1050],
      ['cash', 4950],
    ]);
    const audit = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/audit?Action=booking.payment&ResourceID=${reference}`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data.length).toBe(3);
  });

  it('never collects more than is due when staff click at once (parallel requests)', async () => {
    const reference = await booked({});
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(reference, { Method: 'cash', Amount: '40' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    const fulls = await Promise.all([pay(reference, { Method: 'cash' }), pay(reference, { Method: 'cash' }), pay(reference, { Method: 'cash' })]);
    expect(fulls.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    const booking = await read(reference);
    expect(booking).toMatchObject({ AmountPaid: 9000, AmountDue: 0, PaymentState: 'paid' });
    expect(booking.Payments.reduce((sum: number, p: { AmountMinorUnits: number }) => sum + p.AmountMinorUnits, 0)).toBe(9000);
  });

  it('refuses: 404 for another operator, 409 for a partner booking and a cancelled one, 422 for a missing reference or an unknown method', async () => {
    const reference = await booked({});
    expect(problemOf(await pay(reference, { Method: 'cash' }, other.adminKey), 404, 'not-found')).toBeTruthy();
    expect(problemOf(await pay('BK-ZZZZZZZZ', { Method: 'cash' }), 404, 'not-found')).toBeTruthy();
    expect(problemOf(await pay(reference, { Method: 'voucher', Amount: '5' }), 422, 'validation').errors?.[0]?.field).toBe('Reference');
    expect((await pay(reference, { Method: 'unpaid' })).statusCode).toBe(422);
    expect((await pay(reference, { Method: 'cash', Extra: 1 })).statusCode).toBe(422);

    const partner = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
    });
    expect(partner.statusCode, partner.body).toBe(201);
    const partnerReference = partner.json().data.BookingReference;
    expect(await read(partnerReference)).toMatchObject({ AmountPaid: 0, AmountDue: 0, PaymentState: 'partner' });
    expect(problemOf(await pay(partnerReference, { Method: 'cash' }), 409, 'conflict').detail).toMatch(/marketplace/);

    const held = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: kayak,
      Date: date,
      Time: '10:00',
      Participants: 1,
      Customer: customer(),
      HoldMinutes: 10,
    });
    expect(held.statusCode, held.body).toBe(201);
    expect(problemOf(await pay(held.json().data.BookingReference, { Method: 'cash' }), 409, 'conflict').detail).toMatch(/on hold/);

    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/cancel`)).statusCode).toBe(200);
    expect(await read(reference)).toMatchObject({ AmountDue: 0, PaymentState: 'unpaid' });
    expect(problemOf(await pay(reference, { Method: 'cash' }), 409, 'conflict').errors?.[0]?.field).toBe('Amount');
  });

  it('permissions: the front desk records payments, a guide may not', async () => {
    const reference = await booked({});
    const desk = await userSession(t, op.operatorId, 'front-desk');
    const guide = await userSession(t, op.operatorId, 'guide');
    expect((await as(t, guide, 'POST', `/api/v2/admin/bookings/${reference}/payments`, { Method: 'cash', Amount: '1' })).statusCode).toBe(403);
    const taken = await as(t, desk, 'POST', `/api/v2/admin/bookings/${reference}/payments`, { Method: 'cash', Amount: '1' });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json().data.AmountDue).toBe(8900);
  });
});

describe('online bookings and refunds in the payment state', () => {
  it('a booking paid in the shop is paid; refunded in part, partially_refunded (nothing due); in full, refunded', async () => {
    const opened = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets`, { Customer: customer() });
    const token = opened.json().data.BasketToken;
    const added = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/items`, {
      ActivityID: kayak,
      Date: date,
      Time: '12:00',
      Participants: 1,
    });
    expect(added.statusCode, added.body).toBe(201);
    const reference = added.json().data.Items[0].BookingReference;
    expect(await read(reference)).toMatchObject({ AmountDue: 4500, PaymentState: 'unpaid' });
    const paid = await call(t.app, undefined, 'POST', `/api/v2/shop/${op.operatorId}/baskets/${token}/checkout`, { Payment: GOOD_CARD });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await read(reference)).toMatchObject({ AmountPaid: 4500, AmountDue: 0, PaymentState: 'paid' });
    expect((await read(reference)).Payments[0]).toMatchObject({ Method: 'online', Provider: 'test', BookingOnly: false });
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '5' })).statusCode).toBe(201);
    expect(await read(reference)).toMatchObject({ AmountRefunded: 500, AmountDue: 0, PaymentState: 'partially_refunded' });
    expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/refund`, {})).statusCode).toBe(201);
    expect(await read(reference)).toMatchObject({ AmountRefunded: 4500, PaymentState: 'refunded' });
  });
});

describe('the bookings list filters by payment state', () => {
  it('answers only the bookings in that state, paged', async () => {
    const day = dateFromToday(20);
    await createTimeslot(t, op.adminKey, kayak, { Date: day, Time: '09:00', Capacity: 50 });
    const make = async (Payment?: Record<string, unknown>) => {
      const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: kayak,
        Date: day,
        Time: '09:00',
        Participants: 1,
        Customer: customer(),
        ...(Payment && { Payment }),
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.BookingReference as string;
    };
    const paid = [await make({ Method: 'cash' }), await make({ Method: 'cash' })];
    const part = await make({ Method: 'cash', Amount: '1' });
    const unpaid = await make();
    const list = async (query: string) => {
      const response = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${day}&To=${day}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((b: { BookingReference: string }) => b.BookingReference);
    };
    const all = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings?From=${day}&To=${day}`)).json().data;
    expect(all.map((b: { PaymentState: string; AmountDue: number }) => [b.PaymentState, b.AmountDue])).toEqual([
      ['paid', 0],
      ['paid', 0],
      ['part_paid', 4400],
      ['unpaid', 4500],
    ]);
    expect(await list('PaymentState=paid')).toEqual(paid);
    expect(await list('PaymentState=part_paid')).toEqual([part]);
    expect(await list('PaymentState=unpaid')).toEqual([unpaid]);
    expect(await list('PaymentState=refunded')).toEqual([]);
    expect(await list('PaymentState=paid&Limit=1&Offset=1')).toEqual([paid[1]]);
    expect((await call(t.app, op.adminKey, 'GET', '/api/v2/admin/bookings?PaymentState=owing')).statusCode).toBe(422);
    const csv = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/export?From=${day}&To=${day}&PaymentState=paid`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(paid.every((reference) => csv.body.includes(reference))).toBe(true);
    expect(csv.body).not.toContain(unpaid);
    expect(csv.body).not.toContain(part);
  });
});

describe('the manifest shows who owes', () => {
  it("each booking's amount due and payment state, and the timeslot's total due", async () => {
    const day = dateFromToday(25);
    const slot = await createTimeslot(t, op.adminKey, kayak, { Date: day, Time: '08:00', Capacity: 50 });
    const make = async (Payment?: Record<string, unknown>) => {
      const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
        ActivityID: kayak,
        Date: day,
        Time: '08:00',
        Participants: 1,
        Customer: customer(),
        ...(Payment && { Payment }),
      });
      return response.json().data.BookingReference as string;
    };
    const paid = await make({ Method: 'cash' });
    const part = await make({ Method: 'cash', Amount: '10' });
    const unpaid = await make();
    const manifest = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/manifests/${slot.ID}`);
    expect(manifest.statusCode, manifest.body).toBe(200);
    const data = manifest.json().data;
    const entries = new Map(data.Entries.map((b: { BookingReference: string }) => [b.BookingReference, b]));
    expect(entries.get(paid)).toMatchObject({ AmountDue: '0.00', AmountDueMinorUnits: 0, Currency: 'EUR', PaymentState: 'paid' });
    expect(entries.get(part)).toMatchObject({ AmountDue: '35.00', PaymentState: 'part_paid' });
    expect(entries.get(unpaid)).toMatchObject({ AmountDue: '45.00', PaymentState: 'unpaid' });
    expect(data.Timeslot.Due).toEqual([{ Currency: 'EUR', Amount: '80.00', AmountMinorUnits: 8000 }]);
    const dayManifest = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/manifests?Date=${day}`);
    expect(dayManifest.statusCode, dayManifest.body).toBe(200);
    const timeslot = dayManifest.json().data.Timeslots.find((s: { TimeslotID: number }) => s.TimeslotID === slot.ID);
    expect(timeslot.Due).toEqual([{ Currency: 'EUR', Amount: '80.00', AmountMinorUnits: 8000 }]);
    expect(dayManifest.json().data.Due).toEqual([{ Currency: 'EUR', Amount: '80.00', AmountMinorUnits: 8000 }]);
    expect(timeslotId).toBeGreaterThan(0);
  });
});

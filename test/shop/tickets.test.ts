// The public shop with ticket types: the activities a booking page offers (with their types and prices,
// translated), dates and questions, basket items of a ticket mix with a total per type, and a checkout
// that charges those totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer } from '../emails/fixtures.js';
import { addFamilyTypes, addTicketType } from '../catalog/tickets/fixtures.js';
import { openShop } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let cruise: string;
const date = dateFromToday(15);
const shop = () => `/api/v2/shop/${op.operatorId}`;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  await openShop(t, op.adminKey);
  cruise = (await createActivity(t, op.adminKey, { Name: 'River Cruise', UnitPrice: 1900, Currency: 'EUR' })).ActivityID;
  await addFamilyTypes(t, op.adminKey, cruise);
  await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${cruise}`, { Description: 'On the river' });
  await createTimeslot(t, op.adminKey, cruise, { Date: date, Time: '11:00', Capacity: 10 });
  const archived = (await createActivity(t, op.adminKey, { Name: 'Gone' })).ActivityID;
  await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archived}`, { Archived: true });
});
afterAll(() => t.close());

describe('what the shop sells', () => {
  it('lists the live activities with their ticket types, names in Locale, without a key', async () => {
    const [child] = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${cruise}/ticket-types`))
      .json()
      .data.filter((type: { Type: string }) => type.Type === 'child');
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${child.ID}`, { Translations: { de: { Name: 'Kind' } } });
    const list = await call(t.app, undefined, 'GET', `${shop()}/activities?Locale=de`);
    expect(list.statusCode, list.body).toBe(200);
    const [activity] = list.json().data;
    expect(list.json().data).toHaveLength(1);
    expect(activity).toMatchObject({ ActivityID: cruise, Name: 'River Cruise', Currency: 'EUR', AvailabilityType: 'start_time' });
    expect(activity.TicketTypes.map((type: { Type: string; Name: string; Price: number }) => [type.Type, type.Name, type.Price])).toEqual([
      ['adult', 'Adult', 1900],
      ['child', 'Kind', 1100],
      ['infant', 'Infant', 0],
      ['family', 'Family (2+2)', 5200],
    ]);
    const one = (await call(t.app, undefined, 'GET', `${shop()}/activities/${cruise}`)).json().data;
    expect(one.TicketTypes[1].Name).toBe('Child (4-14)');
    problemOf(await call(t.app, undefined, 'GET', `${shop()}/activities?Locale=%20`), 422, 'validation');
    problemOf(await call(t.app, undefined, 'GET', '/api/v2/shop/999999/activities'), 404, 'not-found');
    problemOf(await call(t.app, undefined, 'GET', `/api/v2/shop/${(await t.newOperator()).operatorId}/activities/${cruise}`), 404, 'not-found');
  });

  it('answers the dates with room and the waiver questions of an activity', async () => {
    await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${cruise}/questions`, {
      Question: 'Can you swim?',
      Type: 'boolean',
      Required: true,
      Translations: { de: { Question: 'Kannst du schwimmen?' } },
    });
    const dates = (
      await call(t.app, undefined, 'GET', `${shop()}/activities/${cruise}/dates?StartDate=${dateFromToday(1)}&EndDate=${dateFromToday(30)}`)
    ).json().data;
    expect(dates).toEqual([{ Date: date, Timeslots: 1, Available: 10 }]);
    const questions = (await call(t.app, undefined, 'GET', `${shop()}/activities/${cruise}/questions?Locale=de`)).json().data;
    expect(questions.map((q: { Question: string }) => q.Question)).toEqual(['Kannst du schwimmen?']);
  });
});

describe('a basket of ticket mixes', () => {
  it('holds the seats of a mix, shows the total per type, and charges it at checkout', async () => {
    const basket = (await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() })).json().data;
    const item = (body: Record<string, unknown>) =>
      call(t.app, undefined, 'POST', `${shop()}/baskets/${basket.BasketToken}/items`, { ActivityID: cruise, Date: date, Time: '11:00', ...body });
    const refused = problemOf(await item({ Tickets: [{ Type: 'child', Quantity: 2 }] }), 422, 'validation');
    expect(refused.errors).toEqual([{ field: 'Tickets[0].Type', message: expect.stringContaining('must come with at least one Adult') }]);
    const added = await item({
      Tickets: [
        { Type: 'adult', Quantity: 2 },
        { Type: 'child', Quantity: 2 },
        { Type: 'infant', Quantity: 1 },
      ],
    });
    expect(added.statusCode, added.body).toBe(201);
    await item({ Participants: 1 });
    const filled = added.json().data;
    expect((await call(t.app, undefined, 'GET', `${shop()}/baskets/${basket.BasketToken}`)).json().data.Total).toBe(2 * 1900 + 2 * 1100 + 1900);
    expect(filled.Items[0]).toMatchObject({
      Participants: 5,
      UnitPrice: null,
      Amount: 6000,
      Tickets: [
        { Type: 'adult', Name: 'Adult', Quantity: 2, UnitPrice: 1900, Amount: 3800 },
        { Type: 'child', Name: 'Child (4-14)', Quantity: 2, UnitPrice: 1100, Amount: 2200 },
        { Type: 'infant', Name: 'Infant', Quantity: 1, UnitPrice: 0, Amount: 0 },
      ],
    });
    const seats = (await call(t.app, undefined, 'GET', `${shop()}/activities/${cruise}/timeslots?Date=${date}`)).json().data[0];
    expect(seats.Available).toBe(10 - 4 - 1);

    const paid = await call(t.app, undefined, 'POST', `${shop()}/baskets/${basket.BasketToken}/checkout`, {
      Payment: { Provider: 'test', CardNumber: '4242424242424242' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ Status: 'paid', Total: 7900 });
    expect(paid.json().data.Items[1]).toMatchObject({ Participants: 1, UnitPrice: 1900, Amount: 1900 });
    const payments = await t.db.kysely.selectFrom('payments').select(['amount', 'status']).execute();
    expect(payments).toEqual([{ amount: 7900, status: 'succeeded' }]);
  });

  it('charges the price a basket item was added at, whatever the type costs when it is paid', async () => {
    const ferry = (await createActivity(t, op.adminKey, { Name: 'Ferry', UnitPrice: 1000, Currency: 'EUR' })).ActivityID;
    await addTicketType(t, op.adminKey, ferry, { Type: 'bike', Name: 'Bicycle', Price: 300, TakesSeat: false, Requires: 'adult' });
    await createTimeslot(t, op.adminKey, ferry, { Date: date, Time: '09:00', Capacity: 4 });
    const basket = (await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer() })).json().data;
    await call(t.app, undefined, 'POST', `${shop()}/baskets/${basket.BasketToken}/items`, {
      ActivityID: ferry,
      Date: date,
      Time: '09:00',
      Tickets: [
        { Type: 'adult', Quantity: 1 },
        { Type: 'bike', Quantity: 1 },
      ],
    });
    const types = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${ferry}/ticket-types`)).json().data;
    for (const type of types) await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${type.ID}`, { Price: type.Price * 2 });
    const paid = await call(t.app, undefined, 'POST', `${shop()}/baskets/${basket.BasketToken}/checkout`, {
      Payment: { Provider: 'test', CardNumber: '4242424242424242' },
    });
    expect(paid.json().data.Total).toBe(1300);
  });
});

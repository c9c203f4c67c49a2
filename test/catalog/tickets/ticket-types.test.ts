// The operator's ticket types: every activity starts with Adult at its UnitPrice, types are checked field
// by field, exactly one is the default (whose price is the UnitPrice), and partners read them on products.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../../availability/fixtures.js';
import { customer } from '../../octo/fixtures.js';
import { addTicketType, CHILD, INFANT, type AdminTicketType } from './fixtures.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;

const types = async (activityId: string): Promise<AdminTicketType[]> =>
  (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${activityId}/ticket-types`)).json().data;
const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors!.map((e) => e.field).sort();

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  other = await t.newOperator();
});
afterAll(() => t.close());

describe('ticket types of an activity', () => {
  it('starts every new activity with one default type Adult at its UnitPrice', async () => {
    const activity = await createActivity(t, op.adminKey, { UnitPrice: 4900 });
    expect(await types(activity.ActivityID)).toEqual([
      {
        ID: expect.any(Number),
        ActivityID: activity.ActivityID,
        Type: 'adult',
        Name: 'Adult',
        Price: 4900,
        Category: 'adult',
        MinAge: null,
        MaxAge: null,
        People: 1,
        TakesSeat: true,
        MinPerBooking: 0,
        MaxPerBooking: null,
        Requires: null,
        Default: true,
        Position: 1,
        Translations: {},
      },
    ]);
  });

  it('adds types with their rules, and answers them in order with a Location', async () => {
    const { ActivityID } = await createActivity(t, op.adminKey);
    const response = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${ActivityID}/ticket-types`, {
      ...CHILD,
      Translations: { 'de-ch': { Name: ' Kind ' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const child = response.json().data;
    expect(response.headers.location).toBe(`/api/v2/admin/ticket-types/${child.ID}`);
    expect(child).toMatchObject({
      Type: 'child',
      Category: 'child',
      Requires: 'adult',
      MinAge: 4,
      MaxAge: 14,
      Default: false,
      Position: 2,
      Translations: { 'de-CH': { Name: 'Kind' } },
    });
    const infant = await addTicketType(t, op.adminKey, ActivityID, { ...INFANT, Position: 0 });
    expect((await types(ActivityID)).map((type) => type.Type)).toEqual(['infant', 'adult', 'child']);
    expect(infant).toMatchObject({ TakesSeat: false, Category: 'infant' });
    // A code that names no category is "other".
    expect((await addTicketType(t, op.adminKey, ActivityID, { Type: 'vip', Name: 'VIP deck', Price: 9900 })).Category).toBe('other');
  });

  it('reports every failing field at once', async () => {
    const { ActivityID } = await createActivity(t, op.adminKey);
    const add = (body: Record<string, unknown>) => call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${ActivityID}/ticket-types`, body);
    const schema = problemOf(await add({ Type: 'Child!', Name: '', Price: -1, People: 0, MaxPerBooking: 0 }), 422, 'validation');
    expect(fieldsOf(schema)).toEqual(['MaxPerBooking', 'Name', 'People', 'Price', 'Type']);
    const rules = problemOf(
      await add({
        Type: 'adult',
        Name: ' ',
        Price: 100,
        MinAge: 10,
        MaxAge: 5,
        MinPerBooking: 3,
        MaxPerBooking: 2,
        Requires: 'nobody',
        Translations: { 'not a tag!': { Name: 'x' } },
      }),
      422,
      'validation',
    );
    expect(fieldsOf(rules)).toEqual(['MaxAge', 'MaxPerBooking', 'Name', 'Requires', 'Translations.not a tag!', 'Type']);
    expect(problemOf(await add({ Type: 'kid', Name: 'Kid', Price: 1, Requires: 'kid' }), 422, 'validation').errors).toEqual([
      { field: 'Requires', message: 'A ticket type cannot require itself' },
    ]);
    // The default is what Participants books: one person, one seat, bookable alone.
    for (const body of [{ TakesSeat: false }, { People: 2 }, { Requires: 'adult' }]) {
      expect(fieldsOf(problemOf(await add({ Type: 'x', Name: 'X', Price: 1, Default: true, ...body }), 422, 'validation'))).toEqual(['Default']);
    }
    expect(await types(ActivityID)).toHaveLength(1);
  });

  it('makes another type the default: one default, and its price becomes the UnitPrice', async () => {
    const { ActivityID } = await createActivity(t, op.adminKey, { UnitPrice: 4500 });
    const [adult] = await types(ActivityID);
    const member = await addTicketType(t, op.adminKey, ActivityID, { Type: 'member', Name: 'Member', Price: 3000, Default: true });
    expect(member.Default).toBe(true);
    expect((await types(ActivityID)).filter((type) => type.Default).map((type) => type.Type)).toEqual(['member']);
    const product = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${ActivityID}`)).json().data;
    expect(product.UnitPrice).toBe(3000);
    // The default stays until another is made it.
    problemOf(await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${member.ID}`, { Default: false }), 422, 'validation');
    // UnitPrice on the activity is the default type's price, both ways.
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${ActivityID}`, { UnitPrice: 3200 });
    expect((await types(ActivityID)).find((type) => type.Type === 'member')!.Price).toBe(3200);
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${adult!.ID}`, { Default: true, Price: 5000 });
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${ActivityID}`)).json().data.UnitPrice).toBe(5000);
  });

  it("never changes a type's code, and keeps the rules on a change", async () => {
    const { ActivityID } = await createActivity(t, op.adminKey);
    const child = await addTicketType(t, op.adminKey, ActivityID, CHILD);
    const patch = (body: Record<string, unknown>) => call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${child.ID}`, body);
    expect(fieldsOf(problemOf(await patch({ Type: 'kid' }), 422, 'validation'))).toEqual(['Type']);
    expect((await patch({ Type: 'child', Name: 'Kid' })).json().data.Name).toBe('Kid');
    expect(fieldsOf(problemOf(await patch({ MinPerBooking: 9 }), 422, 'validation'))).toEqual(['MaxPerBooking']);
    problemOf(await patch({}), 422, 'validation');
  });

  it('takes a type off sale: the default and a required one stay (409); a booked one keeps its bookings', async () => {
    const { ActivityID } = await createActivity(t, op.adminKey, { UnitPrice: 2000 });
    const [adult] = await types(ActivityID);
    const child = await addTicketType(t, op.adminKey, ActivityID, CHILD);
    const del = (id: number) => call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/ticket-types/${id}`);
    problemOf(await del(adult!.ID), 409, 'conflict');
    // child requires adult: make a type require the child, then the child cannot go.
    const teen = await addTicketType(t, op.adminKey, ActivityID, { Type: 'teen', Name: 'Teen', Price: 10, Requires: 'child' });
    expect(problemOf(await del(child.ID), 409, 'conflict').detail).toMatch(/"teen" require "child"/);
    expect((await del(teen.ID)).statusCode).toBe(204);

    const date = dateFromToday(20);
    await createTimeslot(t, op.adminKey, ActivityID, { Date: date, Time: '10:00', Capacity: 10 });
    const booked = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID,
      Date: date,
      Time: '10:00',
      Customer: customer,
      Tickets: [
        { Type: 'adult', Quantity: 1 },
        { Type: 'child', Quantity: 2 },
      ],
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect((await del(child.ID)).statusCode).toBe(204);
    expect((await types(ActivityID)).map((type) => type.Type)).toEqual(['adult']);
    problemOf(await del(child.ID), 404, 'not-found');
    // The booking keeps its tickets, names and prices; new bookings cannot buy the type any more.
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booked.json().data.BookingReference}`)).json().data;
    expect(read.Tickets).toEqual([
      { Type: 'adult', Name: 'Adult', Quantity: 1, UnitPrice: 2000 },
      { Type: 'child', Name: 'Child (4-14)', Quantity: 2, UnitPrice: 1100 },
    ]);
    const again = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID,
      Date: date,
      Time: '10:00',
      Customer: customer,
      Tickets: [
        { Type: 'adult', Quantity: 1 },
        { Type: 'child', Quantity: 1 },
      ],
    });
    expect(problemOf(again, 422, 'validation').errors).toEqual([
      { field: 'Tickets[1].Type', message: expect.stringContaining('no ticket type "child"') },
    ]);
    // The code is free again for a new type.
    await addTicketType(t, op.adminKey, ActivityID, { ...CHILD, Price: 1300 });
  });

  it("is another operator's like a missing one (404), and needs the admin scope", async () => {
    const { ActivityID } = await createActivity(t, op.adminKey);
    const [adult] = await types(ActivityID);
    problemOf(await call(t.app, other.adminKey, 'GET', `/api/v2/admin/activities/${ActivityID}/ticket-types`), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'POST', `/api/v2/admin/activities/${ActivityID}/ticket-types`, CHILD), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${adult!.ID}`, { Price: 1 }), 404, 'not-found');
    problemOf(await call(t.app, other.adminKey, 'DELETE', `/api/v2/admin/ticket-types/${adult!.ID}`), 404, 'not-found');
    problemOf(await call(t.app, op.otaKey, 'GET', `/api/v2/admin/activities/${ActivityID}/ticket-types`), 403, 'forbidden');
    problemOf(await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/ticket-types/2147483648', { Price: 1 }), 400, 'bad-request');
    expect((await types(ActivityID))[0]!.Price).toBe(4500);
  });
});

describe('products list their ticket types', () => {
  it('with prices and rules, names in Locale, and a new ETag when a type changes', async () => {
    const { ActivityID, ID } = await createActivity(t, op.adminKey, { Name: 'Ticketed Cruise', UnitPrice: 1900 });
    await addTicketType(t, op.adminKey, ActivityID, { ...CHILD, Translations: { de: { Name: 'Kind' } } });
    const resolve = (query: string) => call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/resolve-product?ID=${ID}${query}`);
    const product = (await resolve('')).json().data;
    expect(product.TicketTypes).toEqual([
      {
        Type: 'adult',
        Name: 'Adult',
        Price: 1900,
        Category: 'adult',
        MinAge: null,
        MaxAge: null,
        People: 1,
        TakesSeat: true,
        MinPerBooking: 0,
        MaxPerBooking: null,
        Requires: null,
        Default: true,
      },
      {
        Type: 'child',
        Name: 'Child (4-14)',
        Price: 1100,
        Category: 'child',
        MinAge: 4,
        MaxAge: 14,
        People: 1,
        TakesSeat: true,
        MinPerBooking: 0,
        MaxPerBooking: 6,
        Requires: 'adult',
        Default: false,
      },
    ]);
    expect((await resolve('&Locale=de-AT')).json().data.TicketTypes.map((type: { Name: string }) => type.Name)).toEqual(['Adult', 'Kind']);
    problemOf(await resolve('&Locale=__'), 422, 'validation');
    const list = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products?Locale=de');
    expect(list.json().data.find((p: { ID: number }) => p.ID === ID).TicketTypes[1].Name).toBe('Kind');
    const etag = list.headers.etag as string;
    const child = (await types(ActivityID)).find((type) => type.Type === 'child')!;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${child.ID}`, { Price: 1200 });
    const after = await call(t.app, op.otaKey, 'GET', '/api/v2/ota/viator/products?Locale=de', undefined, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(Date.parse(after.json().data.find((p: { ID: number }) => p.ID === ID).UpdatedAt)).toBeGreaterThanOrEqual(Date.parse(product.UpdatedAt));
  });
});

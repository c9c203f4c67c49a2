// OCTo over ticket types, every reply checked against the OCTo document: units from the types (unit
// type, restrictions, prices per unit), unit items priced per unit, vouchers whenever VOUCHER is offered,
// contact notes and the other contact fields kept, required contact fields per activity, octo/questions,
// and an attraction with OPENING_HOURS.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';
import { addFamilyTypes } from '../catalog/tickets/fixtures.js';
import { octoClient, type OctoCall } from './fixtures.js';
import { octoBody, octoError } from './spec.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let cruise: string;
let slot: AdminTimeslot;
let day = 40;

const items = (...units: string[]) => units.map((unitId) => ({ unitId }));
const reserve = (body: Record<string, unknown> = {}, capabilities?: string) =>
  octo(
    'POST',
    '/bookings',
    { productId: cruise, optionId: 'DEFAULT', availabilityId: slot.StartsAt, unitItems: items('adult', 'child', 'infant'), ...body },
    capabilities,
  );

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  octo = octoClient(t, op.otaKey);
  cruise = (await createActivity(t, op.adminKey, { Name: 'River Cruise', UnitPrice: 1900, MaxParticipantsPerBooking: 10 })).ActivityID;
  await addFamilyTypes(t, op.adminKey, cruise);
});
afterAll(() => t.close());

beforeEach(async () => {
  slot = await createTimeslot(t, op.adminKey, cruise, { Date: dateFromToday(day++), Time: '11:00', Capacity: 6 });
});

describe('units are the ticket types', () => {
  it('with their OCTo unit type, restrictions and, with octo/pricing, their prices', async () => {
    const product = octoBody(await octo('GET', `/products/${cruise}`, undefined, 'octo/pricing'), 'Product');
    const [option] = product.options;
    expect(option.units.map((unit: { id: string; type: string }) => [unit.id, unit.type])).toEqual([
      ['adult', 'ADULT'],
      ['child', 'CHILD'],
      ['infant', 'INFANT'],
      ['family', 'FAMILY'],
    ]);
    expect(option.units[1].restrictions).toEqual({
      minAge: 4,
      maxAge: 14,
      idRequired: false,
      minQuantity: null,
      maxQuantity: 6,
      paxCount: 1,
      accompaniedBy: ['adult'],
    });
    expect(option.units[3].restrictions).toMatchObject({ paxCount: 4, maxQuantity: 2, accompaniedBy: [] });
    expect(option.units.map((unit: { pricingFrom: { retail: number }[] }) => unit.pricingFrom[0]!.retail)).toEqual([1900, 1100, 0, 5200]);
    expect(option.pricingFrom).toEqual([{ original: 0, retail: 0, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] }]);
    expect(option.restrictions).toEqual({ minUnits: 1, maxUnits: 10 });
  });

  it('prices each unit on the availability, and counts only seat-taking units against vacancies', async () => {
    const check = async (units: { id: string; quantity: number }[]) =>
      octoBody(
        await octo('POST', '/availability', { productId: cruise, optionId: 'DEFAULT', availabilityIds: [slot.StartsAt], units }, 'octo/pricing'),
        'Availability',
        true,
      )[0];
    const availability = await check([]);
    expect(availability.unitPricing.map((price: { unitId: string; retail: number }) => [price.unitId, price.retail])).toEqual([
      ['adult', 1900],
      ['child', 1100],
      ['infant', 0],
      ['family', 5200],
    ]);
    expect(
      (
        await check([
          { id: 'adult', quantity: 6 },
          { id: 'infant', quantity: 2 },
        ])
      ).available,
    ).toBe(true);
    expect((await check([{ id: 'family', quantity: 2 }])).available).toBe(false);
    octoError(
      await octo('POST', '/availability', {
        productId: cruise,
        optionId: 'DEFAULT',
        availabilityIds: [slot.StartsAt],
        units: [{ id: 'pirate', quantity: 1 }],
      }),
      400,
      'INVALID_UNIT_ID',
    );
  });

  it('reserves a mix of units, each unit item priced at its type', async () => {
    const booking = octoBody(await reserve({}, 'octo/pricing'), 'Booking');
    expect(booking.unitItems.map((item: { unitId: string; pricing: { retail: number } }) => [item.unitId, item.pricing.retail])).toEqual([
      ['adult', 1900],
      ['child', 1100],
      ['infant', 0],
    ]);
    expect(booking.pricing.retail).toBe(3000);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
    const read = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${booking.id}`)).json().data;
    expect(read).toMatchObject({ Participants: 3, Seats: 2, Total: 3000 });
  });

  it('refuses a mix the types do not allow (UNPROCESSABLE_ENTITY), an unknown unit (INVALID_UNIT_ID) and missing unitItems', async () => {
    const before = (await getTimeslot(t, op.adminKey, slot.ID)).Booked;
    expect(octoError(await reserve({ unitItems: items('child', 'child') }), 400, 'UNPROCESSABLE_ENTITY').errorMessage).toMatch(
      /must come with at least one Adult/,
    );
    expect(octoError(await reserve({ unitItems: items('adult', 'infant', 'infant', 'infant') }), 400, 'UNPROCESSABLE_ENTITY').errorMessage).toMatch(
      /At most 2 Infant/,
    );
    expect(octoError(await reserve({ unitItems: items('adult', 'senior') }), 400, 'INVALID_UNIT_ID').unitId).toBe('senior');
    octoError(await reserve({ unitItems: undefined }), 400, 'UNPROCESSABLE_ENTITY');
    octoError(await reserve({ unitItems: [] }), 400, 'UNPROCESSABLE_ENTITY');
    const twice = randomUUID();
    octoError(
      await reserve({
        unitItems: [
          { unitId: 'adult', uuid: twice },
          { unitId: 'adult', uuid: twice },
        ],
      }),
      400,
      'BAD_REQUEST',
    );
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(before);
  });
});

describe('vouchers, contact and required contact fields', () => {
  it('has a voucher whenever VOUCHER is offered, with the QR code once confirmed', async () => {
    const hold = octoBody(await reserve(), 'Booking');
    expect(hold.voucher).toEqual({ redemptionMethod: 'MANIFEST', utcRedeemedAt: null, deliveryOptions: [] });
    const done = octoBody(await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe' } }), 'Booking');
    expect(done.voucher).toEqual({
      redemptionMethod: 'MANIFEST',
      utcRedeemedAt: null,
      deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: hold.id }],
    });
    const cancelled = octoBody(await octo('POST', `/bookings/${hold.uuid}/cancel`, {}), 'Booking');
    expect(cancelled.voucher.deliveryOptions).toEqual([]);
  });

  it("confirms with only a fullName of two words, and keeps the contact's notes, country, postal code and locales", async () => {
    const hold = octoBody(await reserve({ contact: { notes: 'Wheelchair user', locales: ['de-DE'] } }), 'Booking');
    expect(hold.contact).toMatchObject({ notes: 'Wheelchair user', locales: ['de-DE'] });
    const done = octoBody(
      await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe', notes: 'Test note', country: 'GB' } }),
      'Booking',
    );
    expect(done.contact).toEqual({
      fullName: 'John Doe',
      firstName: 'John',
      lastName: 'Doe',
      emailAddress: null,
      phoneNumber: null,
      locales: ['de-DE'],
      postalCode: null,
      country: 'GB',
      notes: 'Test note',
    });
    // The contact's first locale is the guest's language for the booking's e-mails (docs/emails.md).
    const booking = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${done.supplierReference}`);
    expect(booking.json().data.Locale).toBe('de');
    const updated = octoBody(await octo('PATCH', `/bookings/${hold.uuid}`, { contact: { postalCode: '10115', notes: null } }), 'Booking');
    expect(updated.contact).toMatchObject({ postalCode: '10115', notes: null, country: 'GB', firstName: 'John' });
    // A fullName of one word gives no last name: the default requires both names.
    const mononym = octoBody(await reserve(), 'Booking');
    octoError(await octo('POST', `/bookings/${mononym.uuid}/confirm`, { contact: { fullName: 'Cher' } }), 400, 'BAD_REQUEST');
  });

  it('requires the contact fields the activity names, and says so on the option', async () => {
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${cruise}`, {
      RequiredContactFields: ['firstName', 'lastName', 'emailAddress', 'country'],
    });
    try {
      const product = octoBody(await octo('GET', `/products/${cruise}`), 'Product');
      expect(product.options[0].requiredContactFields).toEqual(['firstName', 'lastName', 'emailAddress', 'country']);
      const hold = octoBody(await reserve(), 'Booking');
      const refused = octoError(
        await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe', emailAddress: 'john@example.com' } }),
        400,
        'BAD_REQUEST',
      );
      expect(refused.errorMessage).toMatch(/contact\.country/);
      expect(octoBody(await octo('GET', `/bookings/${hold.uuid}`), 'Booking').status).toBe('ON_HOLD');
      octoBody(
        await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe', emailAddress: 'john@example.com', country: 'NO' } }),
        'Booking',
      );
      const invalid = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${cruise}`, { RequiredContactFields: ['shoeSize'] });
      expect(invalid.statusCode).toBe(422);
    } finally {
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${cruise}`, { RequiredContactFields: ['firstName', 'lastName'] });
    }
  });
});

describe('octo/questions', () => {
  let questions: { ID: number }[];
  beforeAll(async () => {
    const add = (body: Record<string, unknown>) =>
      call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${cruise}/questions`, body).then((r) => r.json().data);
    questions = [
      await add({ Question: 'Can you swim?', Type: 'boolean', Required: true }),
      await add({ Question: 'Lunch', Type: 'select', Required: false, Options: ['Fish', 'Vegetarian'] }),
    ];
  });

  it('puts the waiver questions on the option and their answers on the booking', async () => {
    const product = octoBody(await octo('GET', `/products/${cruise}`, undefined, 'octo/questions'), 'Product');
    expect(product.options[0].questions).toEqual([
      {
        id: String(questions[0]!.ID),
        required: true,
        label: 'Can you swim?',
        description: null,
        inputType: 'select',
        selectOptions: [
          { label: 'Yes', value: 'true' },
          { label: 'No', value: 'false' },
        ],
      },
      {
        id: String(questions[1]!.ID),
        required: false,
        label: 'Lunch',
        description: null,
        inputType: 'select',
        selectOptions: [
          { label: 'Fish', value: 'Fish' },
          { label: 'Vegetarian', value: 'Vegetarian' },
        ],
      },
    ]);
    expect(product.options[0].units[0].questions).toEqual([]);
    expect(octoBody(await octo('GET', `/products/${cruise}`), 'Product').options[0]).not.toHaveProperty('questions');

    const hold = octoBody(await reserve({ questionAnswers: [{ questionId: String(questions[1]!.ID), value: 'Fish' }] }, 'octo/questions'), 'Booking');
    expect(hold.questionAnswers.map((a: { questionId: string; value: string | null }) => [a.questionId, a.value])).toEqual([
      [String(questions[0]!.ID), null],
      [String(questions[1]!.ID), 'Fish'],
    ]);
    // With octo/questions a confirmation needs the required answers; a wrong answer is BAD_REQUEST.
    octoError(await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe' } }, 'octo/questions'), 400, 'BAD_REQUEST');
    octoError(
      await octo('PATCH', `/bookings/${hold.uuid}`, { questionAnswers: [{ questionId: String(questions[0]!.ID), value: 'maybe' }] }),
      400,
      'BAD_REQUEST',
    );
    octoError(await octo('PATCH', `/bookings/${hold.uuid}`, { questionAnswers: [{ questionId: 'lunch', value: 'Fish' }] }), 400, 'BAD_REQUEST');
    const done = octoBody(
      await octo(
        'POST',
        `/bookings/${hold.uuid}/confirm`,
        { contact: { fullName: 'John Doe' }, questionAnswers: [{ questionId: String(questions[0]!.ID), value: 'true' }] },
        'octo/questions',
      ),
      'Booking',
    );
    expect(done.questionAnswers.map((a: { value: string | null }) => a.value)).toEqual(['true', 'Fish']);
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${done.id}`)).json().data.WaiverStatus).toBe('complete');
  });

  it('leaves the waiver pending for a reseller that does not speak octo/questions', async () => {
    const hold = octoBody(await reserve(), 'Booking');
    const done = octoBody(await octo('POST', `/bookings/${hold.uuid}/confirm`, { contact: { fullName: 'John Doe' } }), 'Booking');
    expect(done).not.toHaveProperty('questionAnswers');
    expect((await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${done.id}`)).json().data.WaiverStatus).toBe('pending');
  });
});

describe('an attraction with OPENING_HOURS', () => {
  let deck: string;
  const todayUtc = dateFromToday(0);
  // Opened an hour ago, open for another five: bookable now (until it closes), though it has started.
  const opened = new Date(Date.now() - 3600_000).toISOString().slice(11, 16);
  beforeAll(async () => {
    deck = (
      await createActivity(t, op.adminKey, {
        Name: 'Observation Deck',
        Timezone: 'UTC',
        DurationMinutes: 6 * 60,
        AvailabilityType: 'opening_hours',
        MaxParticipantsPerBooking: 10,
      })
    ).ActivityID;
    await createTimeslot(t, op.adminKey, deck, { Date: todayUtc, Time: opened, Capacity: 100 });
  });

  it('is an OPENING_HOURS product whose days are all-day availabilities with their opening hours', async () => {
    const product = octoBody(await octo('GET', `/products/${deck}`), 'Product');
    expect(product.availabilityType).toBe('OPENING_HOURS');
    expect(product.options[0].availabilityLocalStartTimes).toEqual(['00:00']);
    const [availability] = octoBody(
      await octo('POST', '/availability', { productId: deck, optionId: 'DEFAULT', localDate: todayUtc }),
      'Availability',
      true,
    );
    const closes = new Date(Date.parse(`${todayUtc}T${opened}:00Z`) + 6 * 3600_000);
    expect(availability).toMatchObject({
      id: `${todayUtc}T00:00:00Z`,
      localDateTimeStart: `${todayUtc}T00:00:00Z`,
      localDateTimeEnd: `${dateFromToday(1)}T00:00:00Z`,
      allDay: true,
      available: true,
      status: 'AVAILABLE',
      utcCutoffAt: closes.toISOString().replace('.000Z', 'Z'),
      openingHours: [{ from: opened, to: closes.toISOString().slice(11, 16) }],
    });
    const [calendar] = octoBody(
      await octo('POST', '/availability/calendar', { productId: deck, optionId: 'DEFAULT', localDateStart: todayUtc, localDateEnd: todayUtc }),
      'AvailabilityCalendar',
      true,
    );
    expect(calendar.openingHours).toEqual(availability.openingHours);

    const booking = octoBody(
      await octo('POST', '/bookings', { productId: deck, optionId: 'DEFAULT', availabilityId: availability.id, unitItems: items('adult', 'adult') }),
      'Booking',
    );
    expect(booking).toMatchObject({ availabilityId: availability.id, availability: { allDay: true }, cancellable: true });
    // The partner API sells the day's ticket too, after opening time.
    const partner = await call(t.app, op.otaKey, 'POST', '/api/v2/ota/viator/booking', {
      ActivityID: deck,
      Date: todayUtc,
      Time: opened,
      Participants: 1,
      Customer: { FirstName: 'A', LastName: 'B', Email: 'a@b.example', Phone: '+4912345678' },
    });
    expect(partner.statusCode, partner.body).toBe(201);
    expect((await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/availability/${deck}/timeslots?Date=${todayUtc}`)).json().data[0].Available).toBe(
      97,
    );
  });

  it('has one timeslot a day', async () => {
    const again = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${deck}/timeslots`, {
      Date: todayUtc,
      Time: '23:00',
      Capacity: 5,
    });
    expect(again.statusCode).toBe(409);
    const schedule = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${deck}/timeslots`, {
      From: todayUtc,
      To: dateFromToday(3),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: ['09:00', '12:00'],
      Capacity: 5,
    });
    expect(schedule.statusCode).toBe(422);
    const days = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${deck}/timeslots`, {
      From: todayUtc,
      To: dateFromToday(3),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: ['09:00'],
      Capacity: 5,
    });
    expect(days.json().data.map((s: { Date: string }) => s.Date)).toEqual([dateFromToday(1), dateFromToday(2), dateFromToday(3)]);
    // The product cannot stop being an attraction while it has timeslots.
    expect((await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${deck}`, { AvailabilityType: 'start_time' })).statusCode).toBe(409);
  });

  it('is INVALID_AVAILABILITY_ID on a day it is not open', async () => {
    octoError(
      await octo('POST', '/bookings', {
        uuid: randomUUID(),
        productId: deck,
        optionId: 'DEFAULT',
        availabilityId: `${dateFromToday(300)}T00:00:00+00:00`,
        unitItems: items('adult'),
      }),
      400,
      'INVALID_AVAILABILITY_ID',
    );
  });
});

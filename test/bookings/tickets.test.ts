// Booking a ticket mix through the partner API and the point of sale: priced and checked per type, the
// seats of the seat-taking tickets counted against capacity (never overbooked, also when many mixes race
// for the last seats), and the price of the moment kept with the booking.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday, getTimeslot, type AdminTimeslot } from '../availability/fixtures.js';
import { customer } from '../octo/fixtures.js';
import { addFamilyTypes, type AdminTicketType } from '../catalog/tickets/fixtures.js';
import { addSeconds, unixNow } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let activityId: string;
let slot: AdminTimeslot;
let typesByCode: Record<string, AdminTicketType>;
let day = 30;

const book = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(
    t.app,
    op.otaKey,
    'POST',
    '/api/v2/ota/viator/booking',
    { ActivityID: activityId, Date: slot.Date, Time: '10:00', Customer: customer, ...body },
    headers,
  );
const tickets = (mix: Record<string, number>) => Object.entries(mix).map(([Type, Quantity]) => ({ Type, Quantity }));
const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors!.map((e) => e.field);

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator();
  activityId = (await createActivity(t, op.adminKey, { UnitPrice: 1900, MaxParticipantsPerBooking: 10 })).ActivityID;
  typesByCode = await addFamilyTypes(t, op.adminKey, activityId);
});
afterAll(() => t.close());

// Each test books a timeslot of its own: 8 seats at 10:00.
beforeEach(async () => {
  slot = await createTimeslot(t, op.adminKey, activityId, { Date: dateFromToday(day++), Time: '10:00', Capacity: 8 });
});

describe('a ticket mix', () => {
  it('is priced per type; infants take no seat and a family ticket admits four', async () => {
    const response = await book({ Tickets: tickets({ adult: 2, child: 1, infant: 1, family: 1 }) });
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking).toMatchObject({
      Participants: 8,
      Seats: 7,
      Currency: 'EUR',
      Total: 2 * 1900 + 1100 + 0 + 5200,
      Tickets: [
        { Type: 'adult', Name: 'Adult', Quantity: 2, UnitPrice: 1900 },
        { Type: 'child', Name: 'Child (4-14)', Quantity: 1, UnitPrice: 1100 },
        { Type: 'infant', Name: 'Infant', Quantity: 1, UnitPrice: 0 },
        { Type: 'family', Name: 'Family (2+2)', Quantity: 1, UnitPrice: 5200 },
      ],
    });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(7);
    // Another infant needs no seat, but an infant needs an adult in its own booking.
    expect(fieldsOf(problemOf(await book({ Tickets: tickets({ infant: 1 }) }), 422, 'validation'))).toEqual(['Tickets[0].Type']);
    problemOf(await book({ Tickets: tickets({ adult: 2 }) }), 409, 'insufficient-capacity');
    const last = await book({ Tickets: tickets({ adult: 1, infant: 2 }) });
    expect(last.json().data).toMatchObject({ Participants: 3, Seats: 1 });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Available).toBe(0);
  });

  it('books the default type with Participants, as before; Participants and Tickets together must agree', async () => {
    const plain = (await book({ Participants: 3 })).json().data;
    expect(plain).toMatchObject({ Participants: 3, Seats: 3, Total: 5700, Tickets: [{ Type: 'adult', Quantity: 3, UnitPrice: 1900 }] });
    const both = await book({ Participants: 3, Tickets: tickets({ adult: 1, child: 1, infant: 1 }) });
    expect(both.json().data).toMatchObject({ Participants: 3, Seats: 2 });
    const problem = problemOf(await book({ Participants: 2, Tickets: tickets({ adult: 1, child: 2 }) }), 422, 'validation');
    expect(problem.errors).toEqual([
      { field: 'Participants', message: 'Participants (2) must equal the people the Tickets admit (3); send one of them' },
    ]);
    // Neither: Participants is required, like any missing field.
    expect(fieldsOf(problemOf(await book({}), 422, 'validation'))).toEqual(['Participants']);
  });

  it("names the failing line and field, every one at once, with the waiver's findings", async () => {
    const problem = problemOf(
      await book({
        Tickets: [
          { Type: 'adult', Quantity: 1 },
          { Type: 'pirate', Quantity: 1 },
          { Type: 'child', Quantity: 7 },
          { Type: 'adult', Quantity: 1 },
          { Type: 'infant', Quantity: 3 },
        ],
        WaiverAnswers: [{ QuestionID: 999, Answer: 'yes' }],
      }),
      422,
      'validation',
    );
    expect(problem.errors).toEqual([
      { field: 'Tickets[1].Type', message: expect.stringContaining('no ticket type "pirate"') },
      { field: 'Tickets[2].Quantity', message: 'At most 6 Child (4-14) tickets per booking' },
      { field: 'Tickets[3].Type', message: 'Ticket type "adult" is listed more than once' },
      { field: 'Tickets[4].Quantity', message: 'At most 2 Infant tickets per booking' },
      { field: 'Tickets', message: 'The tickets admit 11 people; at most 10 per booking for this activity' },
      { field: 'WaiverAnswers[0].QuestionID', message: expect.stringContaining('999') },
    ]);
    // Schema errors name the line too; zero of a type is ignored, but the booking needs a ticket.
    expect(
      fieldsOf(
        problemOf(
          await book({
            Tickets: [
              { Type: 'adult', Quantity: -1 },
              { Type: 'Adult!', Quantity: 1 },
            ],
          }),
          422,
          'validation',
        ),
      ).sort(),
    ).toEqual(['Tickets[0].Quantity', 'Tickets[1].Type']);
    expect(problemOf(await book({ Tickets: tickets({ adult: 0 }) }), 422, 'validation').errors).toEqual([
      { field: 'Tickets', message: 'Book at least one ticket' },
    ]);
    problemOf(await book({ Tickets: [] }), 422, 'validation');
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
  });

  it('keeps at least MinPerBooking of a type that is booked at all', async () => {
    const { ActivityID } = await createActivity(t, op.adminKey, { Name: 'Escape room', UnitPrice: 3500 });
    const [player] = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${ActivityID}/ticket-types`)).json().data;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${player.ID}`, { MinPerBooking: 2 });
    await createTimeslot(t, op.adminKey, ActivityID, { Date: slot.Date, Time: '10:00', Capacity: 6 });
    // Participants books the default type: its limits hold for it too.
    expect(problemOf(await book({ ActivityID, Participants: 1 }), 422, 'validation').errors).toEqual([
      { field: 'Participants', message: 'Adult tickets are sold at least 2 at a time' },
    ]);
    expect(problemOf(await book({ ActivityID, Tickets: tickets({ adult: 1 }) }), 422, 'validation').errors).toEqual([
      { field: 'Tickets[0].Quantity', message: 'Adult tickets are sold at least 2 at a time' },
    ]);
    expect((await book({ ActivityID, Participants: 2 })).statusCode).toBe(201);
  });

  it('keeps the price of the moment it was booked, and gives back seats, not people, when cancelled', async () => {
    const booked = (await book({ Tickets: tickets({ adult: 1, infant: 1 }) })).json().data;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${typesByCode.infant!.ID}`, { Price: 500 });
    const read = (await call(t.app, op.otaKey, 'GET', `/api/v2/ota/viator/booking/${booked.BookingReference}`)).json().data;
    expect(read.Tickets[1]).toEqual({ Type: 'infant', Name: 'Infant', Quantity: 1, UnitPrice: 0 });
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/ticket-types/${typesByCode.infant!.ID}`, { Price: 0 });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(1);
    await call(t.app, op.otaKey, 'POST', `/api/v2/ota/viator/booking/${booked.BookingReference}/cancel`);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(0);
  });

  it('releases the seats of a lapsed hold, not its people', async () => {
    const hold = (await book({ Tickets: tickets({ adult: 2, infant: 2 }), HoldMinutes: 5 })).json().data;
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(2);
    await t.db.kysely
      .updateTable('bookings')
      .set({ hold_expires_at: addSeconds(unixNow(), -1) })
      .where('reference', '=', hold.BookingReference)
      .execute();
    expect((await book({ Participants: 8 })).statusCode).toBe(201);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(8);
  });

  it('replays a mix with its Idempotency-Key, and the point of sale books mixes too', async () => {
    const body = { Tickets: tickets({ adult: 1, child: 1 }) };
    const first = await book(body, { 'idempotency-key': 'mix-1' });
    const again = await book(body, { 'idempotency-key': 'mix-1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    problemOf(await book({ Tickets: tickets({ adult: 2 }) }, { 'idempotency-key': 'mix-1' }), 422, 'idempotency-key-reuse');
    const pos = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: activityId,
      Date: slot.Date,
      Time: '10:00',
      Customer: customer,
      Tickets: tickets({ adult: 1, family: 1 }),
    });
    expect(pos.json().data).toMatchObject({ Source: 'pos', Participants: 5, Seats: 5, Total: 7100 });
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(7);
  });
});

describe('capacity with mixes under concurrency', () => {
  it('never overbooks: racing mixes take exactly the seats the confirmed bookings hold', async () => {
    const mixes = Array.from({ length: 40 }, (_, i) =>
      tickets([{ adult: 1 }, { adult: 1, infant: 1 }, { adult: 1, child: 2 }, { family: 1 }, { adult: 2, infant: 2 }][i % 5]!),
    );
    const responses = await Promise.all(mixes.map((mix) => book({ Tickets: mix })));
    expect(responses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    const won = responses.filter((r) => r.statusCode === 201).map((r) => r.json().data as { Seats: number; Participants: number });
    const seats = won.reduce((sum, b) => sum + b.Seats, 0);
    expect(seats).toBeLessThanOrEqual(8);
    expect((await getTimeslot(t, op.adminKey, slot.ID)).Booked).toBe(seats);
    const stored = await t.db.kysely
      .selectFrom('bookings')
      .select(['seats', 'participants'])
      .where('timeslot_id', '=', slot.ID)
      .where('status', '=', 'confirmed')
      .execute();
    expect(stored.reduce((sum, row) => sum + Number(row.seats), 0)).toBe(seats);
    expect(stored.reduce((sum, row) => sum + Number(row.participants), 0)).toBe(won.reduce((sum, b) => sum + b.Participants, 0));
  });
});

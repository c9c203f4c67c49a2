// How fast the bookings report is over a season of bookings (docs/reports.md, "Performance"). Not part of
// `npm run bench`; run on its own: `npx tsx bench/report-season.ts` (SQLite) or with TEST_DIALECT=postgres.
// Two operators with a season each (the second one is there to show the query reads only one operator's
// rows): 12 activities, 180 days, 4 timeslots a day, 8 bookings per timeslot, a ticket row per booking.
import { sql } from 'kysely';
import { createTestApp } from '../test/helpers/app.js';
import { call } from '../test/helpers/app.js';
import { bookingReport } from '../src/reports/service.js';
import { asUnixSeconds, nowMillis } from '../src/lib/clock.js';

const ACTIVITIES = 12;
const DAYS = 180;
const TIMES = ['09:00', '11:00', '14:00', '17:00'];
const PER_SLOT = 8;
const START = '2031-04-01';
const dateAt = (offset: number) => new Date(Date.parse(`${START}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

const t = await createTestApp();
const operators = [await t.newOperator('Measured'), await t.newOperator('Noise')];
let reference = 0;
const seedStarted = performance.now();
for (const op of operators) {
  for (let a = 0; a < ACTIVITIES; a++) {
    const response = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
      Name: `Activity ${a}`,
      DurationMinutes: 60,
      Timezone: a % 2 ? 'Europe/Oslo' : 'America/New_York',
      Currency: a % 3 ? 'EUR' : 'USD',
      UnitPrice: 2500 + a,
    });
    const activity = response.json().data as { ActivityID: string };
    const row = await t.db.kysely.selectFrom('activities').select('id').where('public_id', '=', activity.ActivityID).executeTakeFirstOrThrow();
    const ticket = await t.db.kysely.selectFrom('ticket_types').select(['id', 'price']).where('activity_id', '=', row.id).executeTakeFirstOrThrow();
    await t.db.write(async (tx) => {
      for (let d = 0; d < DAYS; d++) {
        const date = dateAt(d);
        const slots = await tx
          .insertInto('timeslots')
          .values(
            TIMES.map((time, i) => ({
              operator_id: op.operatorId,
              activity_id: row.id,
              date,
              time,
              starts_at: asUnixSeconds(1_950_000_000 + d * 86_400 + i * 3600),
              ends_at: asUnixSeconds(1_950_000_000 + d * 86_400 + i * 3600 + 3600),
              capacity: 100,
            })),
          )
          .returning('id')
          .execute();
        for (const slot of slots) {
          const bookings = await tx
            .insertInto('bookings')
            .values(
              Array.from({ length: PER_SLOT }, (_, k) => ({
                operator_id: op.operatorId,
                reference: `BK-S${String(++reference).padStart(7, '0')}`,
                timeslot_id: slot.id,
                status: k === 0 ? 'cancelled' : 'confirmed',
                source: k % 3 === 0 ? 'partner' : k % 3 === 1 ? 'pos' : 'online',
                partner: k % 3 === 0 ? (k % 2 ? 'viator' : 'getyourguide') : null,
                participants: 1 + (k % 4),
                customer_first_name: 'A',
                customer_last_name: 'B',
                customer_email: 'a@example.com',
                customer_phone: '+1',
                waiver_status: 'complete',
                created_at: nowMillis(),
              })),
            )
            .returning(['id', 'participants'])
            .execute();
          await tx
            .insertInto('booking_tickets')
            .values(
              bookings.map((b) => ({
                booking_id: b.id,
                ticket_type_id: ticket.id,
                code: 'adult',
                name: 'Adult',
                quantity: b.participants,
                unit_price: ticket.price,
                currency: a % 3 ? 'EUR' : 'USD',
                position: 1,
              })),
            )
            .execute();
        }
      }
    });
  }
}
if (t.db.dialect === 'postgres') await sql`ANALYZE`.execute(t.db.kysely);
else await sql`ANALYZE`.execute(t.db.kysely);
const total = await t.db.kysely
  .selectFrom('bookings')
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirstOrThrow();
console.log(`${t.db.dialect}: ${total.n} bookings of 2 operators seeded in ${Math.round(performance.now() - seedStarted)} ms`);

async function measure(label: string, from: string, to: string) {
  const times: number[] = [];
  let bookings = 0;
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    const report = await bookingReport(t.db.kysely, operators[0]!.operatorId, { From: from, To: to });
    times.push(performance.now() - started);
    bookings = report.Totals.Bookings + report.Totals.CancelledBookings;
  }
  times.sort((x, y) => x - y);
  console.log(`${label}: ${bookings} bookings, median ${times[3]!.toFixed(1)} ms, best ${times[0]!.toFixed(1)} ms, worst ${times[6]!.toFixed(1)} ms`);
}
await measure('one day', dateAt(10), dateAt(10));
await measure('30 days', dateAt(30), dateAt(59));
await measure(`the season (${DAYS} days)`, dateAt(0), dateAt(DAYS - 1));

// The plan of the report's query: by timeslots_operator_date, then bookings_timeslot.
const explain = t.db.dialect === 'postgres' ? sql.raw('EXPLAIN') : sql.raw('EXPLAIN QUERY PLAN');
const plan = await sql<
  Record<string, unknown>
>`${explain} SELECT count(*) FROM timeslots INNER JOIN bookings ON bookings.timeslot_id = timeslots.id WHERE timeslots.operator_id = ${operators[0]!.operatorId} AND timeslots.date >= ${dateAt(30)} AND timeslots.date <= ${dateAt(59)} AND bookings.status IN ('confirmed', 'cancelled')`.execute(
  t.db.kysely,
);
console.log(plan.rows.map((row) => Object.values(row).join(' ')).join('\n'));
await t.close();

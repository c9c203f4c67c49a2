// Demo data: an operator with five activities (activities.ts) in three time zones, one of them an
// attraction with opening hours, each with its ticket types, 60 days of timeslots, waiver questions (one
// a required file upload) and a key of each kind, so that a newcomer can try every API within a minute
// of the first start, and a reseller can certify an OCTo connection against it. The operator and its
// keys are created in one transaction (so two processes starting at once cannot both seed); ticket
// types, timeslots, questions and one sold-out departure follow through their services.
import type { Db, Tx } from '../db/connection.js';
import { randomBytes } from 'node:crypto';
import { createApiKey } from '../auth/service.js';
import { createOwner } from '../staff/accounts/service.js';
import { addActivity } from '../catalog/service.js';
import { countOperators, insertOperator } from '../operators/service.js';
import { todayIn } from '../calendar/zoned-time.js';
import { createTimeslots } from '../availability/creation.js';
import { createQuestion } from '../questions/service.js';
import { setShopOpen } from '../shop/settings.js';
import { updateSettingsRow } from '../settings/index.js';

/** The demo shop's contact address: the Reply-To of its guests' e-mails (.example: it reaches no one). */
export const DEMO_CONTACT_EMAIL = 'hello@demo-adventures.example';
import type { CreateQuestionBody } from '../questions/schemas.js';
import { changeTicketType, createTicketType, listAdminTicketTypes } from '../catalog/tickets/service.js';
import { bookTimeslot } from '../bookings/service.js';
import { addDemoPhotos } from './photos.js';
import { DEMO_ACTIVITIES as ACTIVITIES, type DemoActivity } from './activities.js';
import { connectWithActivities, type ReadyConnection } from '../getyourguide/connection.js';
import { connectWithActivities as connectViator, type ReadyConnection as ReadyViatorConnection } from '../viator/connection.js';

export const DEMO_MARKETPLACE = 'demo';
export const DEMO_DAYS = 60;
export const DEMO_OWNER_EMAIL = 'owner@demo-adventures.example';
/** The demo's supplier ID at GetYourGuide (a made-up one: GYG issues real ones). */
export const DEMO_GYG_SUPPLIER_ID = 'demo-adventures';
/** The demo's supplier ID at Viator (a made-up one: Viator issues real ones, as integers). */
export const DEMO_VIATOR_SUPPLIER_ID = '1004';

export interface DemoSeed {
  operatorId: number;
  keys: { admin: string; ota: string; usage: string };
  /** The demo owner's dashboard sign-in (the password is random, shown once). */
  owner: { email: string; password: string };
  activityIds: string[];
  /** The GetYourGuide connection, switched on with every demo activity offered under its ActivityID. */
  gyg: ReadyConnection;
  viator: ReadyViatorConnection;
  announcement(publicUrl: string): string;
}

const WAIVER: CreateQuestionBody[] = [
  {
    Question: 'I confirm that I can swim and take part at my own risk.',
    Type: 'consent',
    Required: true,
    Translations: { de: { Question: 'Ich bestätige, dass ich schwimmen kann und auf eigene Gefahr teilnehme.' } },
  },
  {
    Question: 'Experience level',
    Type: 'select',
    Required: false,
    Options: ['Beginner', 'Intermediate', 'Expert'],
    Translations: { de: { Question: 'Erfahrung', Options: ['Anfänger', 'Fortgeschritten', 'Experte'] } },
  },
  { Question: 'Upload a photo ID of the lead participant', Type: 'file', Required: true, RequiresFileUpload: true },
  { Question: 'Date of birth of the lead participant', Type: 'date', Required: false },
];

/** Seeds the demo operator when the database has no operator yet (checked inside the write, so two
 * processes starting at once cannot both seed). */
export async function seedDemoOnFirstStart(db: Db): Promise<DemoSeed | undefined> {
  const demo = await db.write(async (tx) => ((await countOperators(tx)) === 0 ? insertDemo(tx) : undefined));
  if (demo) await addSchedules(db, demo);
  return demo;
}

export async function seedDemo(db: Db): Promise<DemoSeed> {
  const demo = await db.write(insertDemo);
  await addSchedules(db, demo);
  await addDemoActivityPhotos(db, demo);
  return demo;
}

/**
 * The demo activities' illustrations (src/demo/photos.ts). A second or two of CPU in a worker thread: the
 * server adds them after it listens, so the first start answers at once.
 */
export function addDemoActivityPhotos(db: Db, demo: DemoSeed): Promise<void> {
  return addDemoPhotos(
    db,
    demo.operatorId,
    demo.activityIds,
    ACTIVITIES.map((spec) => spec.scene),
  );
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Ticket types, 60 days of timeslots from today in each activity's zone (opening hours from yesterday: a
 * reseller asking from its own today, behind the attraction's, still finds every day open), the waiver
 * questions, and a private party that sold out one escape-room game (so a reseller sees SOLD_OUT).
 */
async function addSchedules(db: Db, demo: DemoSeed): Promise<void> {
  for (const [i, spec] of ACTIVITIES.entries()) {
    const activityId = demo.activityIds[i]!;
    await addTicketTypes(db, demo.operatorId, activityId, spec);
    const today = todayIn(spec.timezone);
    const from = spec.openingHours ? addDays(today, -1) : today;
    await createTimeslots(db, demo.operatorId, activityId, {
      From: from,
      To: addDays(today, DEMO_DAYS - 1),
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Times: spec.times,
      Capacity: spec.capacity,
    });
    for (const question of WAIVER) await createQuestion(db, demo.operatorId, activityId, question);
  }

  const vault = ACTIVITIES.findIndex((spec) => spec.name.startsWith('Escape Room'));
  const draft = {
    activityId: demo.activityIds[vault]!,
    date: addDays(todayIn(ACTIVITIES[vault]!.timezone), 3),
    time: '19:00',
    participants: 6,
    customer: { firstName: 'Office', lastName: 'Party', email: 'party@example.com', phone: '+12125550100' },
  };
  await db.write((tx) => bookTimeslot(tx, { operatorId: demo.operatorId, source: 'pos', partner: null }, draft));
}

async function addTicketTypes(db: Db, operatorId: number, activityId: string, spec: DemoActivity): Promise<void> {
  const [adult] = await listAdminTicketTypes(db.kysely, operatorId, activityId);
  await changeTicketType(db, operatorId, adult!.ID, { ...spec.adult, Translations: { de: { Name: spec.adultName } } });
  for (const type of spec.ticketTypes) await createTicketType(db, operatorId, activityId, type);
}

async function insertDemo(tx: Tx): Promise<DemoSeed> {
  const { operatorId, adminKey } = await insertOperator(tx, 'Demo Adventures', 'demo');
  const ota = await createApiKey(tx, operatorId, { name: 'Demo marketplace', scopes: ['ota'], partner: DEMO_MARKETPLACE });
  const usage = await createApiKey(tx, operatorId, { name: 'Demo usage', scopes: ['usage:read', 'usage:write'] });
  // The demo's shop is open, so that the README's shop tour works; other operators open theirs themselves.
  await setShopOpen(tx, operatorId, true);
  // Guests' confirmations say "reply to this e-mail" with a Reply-To (docs/emails.md): the demo has an address.
  await updateSettingsRow(tx, operatorId, { contact_email: DEMO_CONTACT_EMAIL });
  const activityIds: string[] = [];
  for (const spec of ACTIVITIES) {
    const product = await addActivity(tx, operatorId, {
      Name: spec.name,
      Description: spec.description,
      DurationMinutes: spec.durationMinutes,
      Timezone: spec.timezone,
      Currency: spec.currency,
      UnitPrice: spec.unitPrice,
      MaxParticipantsPerBooking: spec.maxParticipants,
      ...(spec.openingHours && { AvailabilityType: 'opening_hours' as const }),
      MeetingPoint: spec.meetingPoint,
      Inclusions: spec.inclusions,
      WhatToBring: spec.whatToBring,
    });
    activityIds.push(product.ActivityID);
  }
  const keys = { admin: adminKey, ota: ota.key, usage: usage.key };
  const owner = { email: DEMO_OWNER_EMAIL, password: randomBytes(12).toString('base64url') };
  await createOwner(tx, operatorId, owner.email, { password: owner.password });
  const gyg = await connectWithActivities(tx, operatorId, DEMO_GYG_SUPPLIER_ID, activityIds);
  // Connected to Viator too, without Viator's key for its notification endpoint: the demo pushes nothing.
  const viator = await connectViator(tx, operatorId, DEMO_VIATOR_SUPPLIER_ID, activityIds);
  return {
    operatorId,
    keys,
    owner,
    activityIds,
    gyg,
    viator,
    announcement: (publicUrl) => announce(publicUrl, keys, owner, activityIds, gyg, viator),
  };
}

function announce(
  publicUrl: string,
  keys: DemoSeed['keys'],
  owner: DemoSeed['owner'],
  activityIds: string[],
  gyg: ReadyConnection,
  viator: ReadyViatorConnection,
): string {
  const today = new Date().toISOString().slice(0, 10);
  const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  return `
  slotbook demo data created (operator "Demo Adventures"). These credentials are shown only now.

  Dashboard: ${publicUrl}/  sign in as the demo owner
    e-mail    ${owner.email}
    password  ${owner.password}

  API keys:

    ota   (marketplace "${DEMO_MARKETPLACE}")  ${keys.ota}
    usage (usage:read, usage:write)      ${keys.usage}
    admin                                ${keys.admin}

  GetYourGuide supplier API at ${publicUrl}/gyg (HTTP Basic; the products are the ActivityIDs):
getyourguide supplier ${gyg.supplierId} ${gyg.username}:${gyg.password} ${publicUrl}/gyg

  Viator reservation system API at ${publicUrl}/viator (X-Api-Key; the product options are the ActivityIDs):
viator supplier ${viator.supplierId} key ${viator.key} ${publicUrl}/viator

  Try it:
    curl -H "Authorization: Bearer ${keys.ota}" ${publicUrl}/api/v2/ota/${DEMO_MARKETPLACE}/products
    curl -H "Authorization: Bearer ${keys.ota}" "${publicUrl}/api/v2/ota/${DEMO_MARKETPLACE}/availability/${activityIds[0]}/dates?StartDate=${today}&EndDate=${inTwoWeeks}"
    curl -u ${gyg.username}:${gyg.password} "${publicUrl}/gyg/1/suppliers/${gyg.supplierId}/products/"
    curl -H "X-Api-Key: ${viator.key}" -H 'Content-Type: application/json' ${publicUrl}/viator/v2/availability/calendar \\
      -d '{"supplierId":${viator.supplierId},"productOptionIds":["${activityIds[0]}"],"startDate":"${today}","endDate":"${inTwoWeeks}"}'

  API docs: ${publicUrl}/docs
`;
}

// Demo data: an operator with three activities in different time zones, 60 days of timeslots, waiver
// questions (one a required file upload) and a key of each kind, so that a newcomer can try every API
// within a minute of the first start. The operator and its keys are created in one transaction (so two
// processes starting at once cannot both seed); timeslots and questions follow through their services.
import type { Db, Tx } from '../db/connection.js';
import { randomBytes } from 'node:crypto';
import { createApiKey } from '../auth/service.js';
import { createOwner } from '../staff/accounts.js';
import { createActivity } from '../catalog/service.js';
import { countOperators, insertOperator } from '../operators/service.js';
import { todayIn } from '../calendar/zoned-time.js';
import { createTimeslots } from '../availability/creation.js';
import { createQuestion } from '../questions/service.js';
import type { CreateQuestionBody } from '../questions/schemas.js';

export const DEMO_MARKETPLACE = 'demo';
export const DEMO_DAYS = 60;
export const DEMO_OWNER_EMAIL = 'owner@demo-adventures.example';

interface DemoActivity {
  name: string;
  description: string;
  durationMinutes: number;
  timezone: string;
  currency: string;
  unitPrice: number;
  maxParticipants: number;
  times: string[];
  capacity: number;
}

const ACTIVITIES: DemoActivity[] = [
  {
    name: 'Sunset Kayak Tour',
    description: 'Two hours on the Spree at golden hour, with a guide and all equipment.',
    durationMinutes: 120,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    unitPrice: 4900,
    maxParticipants: 8,
    times: ['10:00', '18:30'],
    capacity: 12,
  },
  {
    name: 'Escape Room: The Vault',
    description: 'Crack the bank vault in 60 minutes. For 2 to 6 players.',
    durationMinutes: 60,
    timezone: 'America/New_York',
    currency: 'USD',
    unitPrice: 3500,
    maxParticipants: 6,
    times: ['12:00', '15:00', '19:00'],
    capacity: 6,
  },
  {
    name: 'Pottery Wheel Class',
    description: 'A beginner class at the wheel; your bowl is fired and ready a week later.',
    durationMinutes: 150,
    timezone: 'Asia/Tokyo',
    currency: 'JPY',
    unitPrice: 6500,
    maxParticipants: 4,
    times: ['14:00'],
    capacity: 10,
  },
];

export interface DemoSeed {
  operatorId: number;
  keys: { admin: string; ota: string; usage: string };
  /** The demo owner's dashboard sign-in (the password is random, shown once). */
  owner: { email: string; password: string };
  activityIds: string[];
  announcement(publicUrl: string): string;
}

const WAIVER: CreateQuestionBody[] = [
  {
    Question: 'I confirm that I can swim and take part at my own risk.',
    Type: 'boolean',
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
  return demo;
}

/** 60 days of timeslots from today (in each activity's zone) and the waiver questions. */
async function addSchedules(db: Db, demo: DemoSeed): Promise<void> {
  for (const [i, spec] of ACTIVITIES.entries()) {
    const activityId = demo.activityIds[i]!;
    const from = todayIn(spec.timezone);
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + (DEMO_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    await createTimeslots(db, demo.operatorId, activityId, { From: from, To: to, Weekdays: [1, 2, 3, 4, 5, 6, 7], Times: spec.times, Capacity: spec.capacity });
    for (const question of WAIVER) await createQuestion(db, demo.operatorId, activityId, question);
  }
}

async function insertDemo(tx: Tx): Promise<DemoSeed> {
  const { operatorId, adminKey } = await insertOperator(tx, 'Demo Adventures');
  const ota = await createApiKey(tx, operatorId, { name: 'Demo marketplace', scopes: ['ota'], partner: DEMO_MARKETPLACE });
  const usage = await createApiKey(tx, operatorId, { name: 'Demo usage', scopes: ['usage:read', 'usage:write'] });
  const activityIds: string[] = [];
  for (const spec of ACTIVITIES) {
    const product = await createActivity(tx, operatorId, {
      Name: spec.name,
      Description: spec.description,
      DurationMinutes: spec.durationMinutes,
      Timezone: spec.timezone,
      Currency: spec.currency,
      UnitPrice: spec.unitPrice,
      MaxParticipantsPerBooking: spec.maxParticipants,
    });
    activityIds.push(product.ActivityID);
  }
  const keys = { admin: adminKey, ota: ota.key, usage: usage.key };
  const owner = { email: DEMO_OWNER_EMAIL, password: randomBytes(12).toString('base64url') };
  await createOwner(tx, operatorId, owner.email, { password: owner.password });
  return { operatorId, keys, owner, activityIds, announcement: (publicUrl) => announce(publicUrl, keys, owner, activityIds) };
}

function announce(publicUrl: string, keys: DemoSeed['keys'], owner: DemoSeed['owner'], activityIds: string[]): string {
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

  Try it:
    curl -H "Authorization: Bearer ${keys.ota}" ${publicUrl}/api/v2/ota/${DEMO_MARKETPLACE}/products
    curl -H "Authorization: Bearer ${keys.ota}" "${publicUrl}/api/v2/ota/${DEMO_MARKETPLACE}/availability/${activityIds[0]}/dates?StartDate=${today}&EndDate=${inTwoWeeks}"

  API docs: ${publicUrl}/docs
`;
}

// Shared set-up for the platform-event tests: a delivery (the worker's sending side) on the test app's
// database, reading meter entries, and bookings through the HTTP API.
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';
import { createMailer } from '../../src/emails/mailer.js';
import type { Delivery } from '../../src/emails/worker.js';
import type { Db } from '../../src/db/connection.js';
import { unixNow } from '../../src/lib/clock.js';

export function deliveryFor(t: TestApp, workerId = 'test-worker'): Delivery {
  return { mailer: createMailer(t.app.config), from: t.app.config.emailFrom, workerId, keys: t.app.instanceKeys, publicUrl: t.app.config.publicUrl };
}

export async function meterEntries(db: Db, operatorId: number, meter: string) {
  return db.kysely
    .selectFrom('usage_entries')
    .select(['id', 'meter', 'usage_micros', 'extra_info'])
    .where('operator_id', '=', operatorId)
    .where('meter', '=', meter)
    .orderBy('id')
    .execute();
}

export const nowSeconds = () => unixNow();

export const customer = (FirstName = 'Ada', Email = 'ada@example.com') => ({ FirstName, LastName: 'Lovelace', Email, Phone: '+441234567890' });

export async function posBooking(
  t: TestApp,
  adminKey: string,
  slot: { ActivityID: string; Date: string; Time: string },
  Participants = 1,
  who = customer(),
) {
  const response = await call(t.app, adminKey, 'POST', '/api/v2/admin/bookings', { ...slot, Participants, Customer: who });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { BookingReference: string; Status: string };
}

export async function summaryOf(t: TestApp, usageKey: string) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await call(t.app, usageKey, 'GET', `/api/v2/usage/meters?from=${day(-1)}&to=${day(1)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { Meters: { Meter: string; TotalUsage: number; EventCount: number }[] };
}

/**
 * Pauses the operator's starter workflows (every new operator has them: src/workflows/starter.ts), for tests
 * about workflows of their own, whose e-mails they count. test/emails/guest-confirmation.test.ts tests the
 * starters themselves.
 */
export async function pauseStarterWorkflows(t: TestApp, adminKey: string): Promise<void> {
  const list = (await call(t.app, adminKey, 'GET', '/api/v2/admin/workflows')).json().data as { ID: number; Enabled: boolean }[];
  for (const workflow of list.filter((w) => w.Enabled)) {
    const response = await call(t.app, adminKey, 'PATCH', `/api/v2/admin/workflows/${workflow.ID}`, { Enabled: false });
    expect(response.statusCode, response.body).toBe(200);
  }
}

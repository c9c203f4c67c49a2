// Shared set-up for the availability and booking tests: activities, timeslots and dates computed from
// the real clock, so that "future" timeslots stay in the future whenever the suite runs.
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';
// The API type itself, so that the fixtures cannot drift from what the routes answer.
import type { AdminTimeslot } from '../../src/availability/schemas.js';

export type { AdminTimeslot };

/** The UTC date `days` days from now, YYYY-MM-DD. */
export function dateFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The last Sunday of March of `year` (Europe's spring-forward day). */
export function lastSundayOfMarch(year: number): string {
  const day = new Date(Date.UTC(year, 2, 31));
  day.setUTCDate(31 - day.getUTCDay());
  return day.toISOString().slice(0, 10);
}

/** The second Sunday of March of `year` (the United States' spring-forward day). */
export function secondSundayOfMarch(year: number): string {
  const first = new Date(Date.UTC(year, 2, 1));
  const firstSunday = 1 + ((7 - first.getUTCDay()) % 7);
  return new Date(Date.UTC(year, 2, firstSunday + 7)).toISOString().slice(0, 10);
}

/** The first Sunday of November of `year` (the United States' fall-back day). */
export function firstSundayOfNovember(year: number): string {
  const first = new Date(Date.UTC(year, 10, 1));
  return new Date(Date.UTC(year, 10, 1 + ((7 - first.getUTCDay()) % 7))).toISOString().slice(0, 10);
}

/** A year whose March (and November) lie at least a week in the future. */
export function futureSpringYear(): number {
  const now = new Date();
  return now.getUTCMonth() < 2 ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
}

export async function createActivity(t: TestApp, adminKey: string, body: Record<string, unknown> = {}) {
  const response = await call(t.app, adminKey, 'POST', '/api/v2/admin/activities', {
    Name: 'Sunset Kayak Tour',
    DurationMinutes: 90,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 4500,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { ID: number; ActivityID: string; Timezone: string; MaxParticipantsPerBooking: number };
}

export async function createTimeslot(t: TestApp, adminKey: string, activityId: string, body: { Date: string; Time: string; Capacity: number }) {
  const response = await call(t.app, adminKey, 'POST', `/api/v2/admin/activities/${activityId}/timeslots`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as AdminTimeslot;
}

export async function getTimeslot(t: TestApp, adminKey: string, id: number) {
  const response = await call(t.app, adminKey, 'GET', `/api/v2/admin/timeslots/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as AdminTimeslot;
}

// Ticket types for the tests: a cruise-like activity selling adults (default), children who need an
// adult, infants who need an adult and take no seat, and a family ticket admitting four.
import { expect } from 'vitest';
import { call, type TestApp } from '../../helpers/app.js';
import type { AdminTicketType } from '../../../src/catalog/tickets/schemas.js';

export type { AdminTicketType };

export async function addTicketType(t: TestApp, adminKey: string, activityId: string, body: Record<string, unknown>): Promise<AdminTicketType> {
  const response = await call(t.app, adminKey, 'POST', `/api/v2/admin/activities/${activityId}/ticket-types`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

export const CHILD = { Type: 'child', Name: 'Child (4-14)', Price: 1100, MinAge: 4, MaxAge: 14, Requires: 'adult', MaxPerBooking: 6 };
export const INFANT = { Type: 'infant', Name: 'Infant', Price: 0, TakesSeat: false, Requires: 'adult', MaxPerBooking: 2, Category: 'infant' };
export const FAMILY = { Type: 'family', Name: 'Family (2+2)', Price: 5200, People: 4, MaxPerBooking: 2 };

/** Adds child, infant and family types to an activity whose default (adult) is already there. */
export async function addFamilyTypes(t: TestApp, adminKey: string, activityId: string): Promise<Record<string, AdminTicketType>> {
  return {
    child: await addTicketType(t, adminKey, activityId, CHILD),
    infant: await addTicketType(t, adminKey, activityId, INFANT),
    family: await addTicketType(t, adminKey, activityId, FAMILY),
  };
}

// Set-up for the GetYourGuide tests: an operator with a mapped activity and an enabled connection, calls
// to /gyg with its Basic credentials, and every answer checked against the schemas written from GYG's files.
import type { LightMyRequestResponse } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { call, type TestApp, type TestOperator } from '../helpers/app.js';
import {
  AddonsData,
  answer,
  AvailabilityData,
  BookingData,
  EmptyData,
  GygErrorBody,
  PricingCategoriesData,
  ProductDetailsData,
  ReservationData,
  SupplierProductsData,
} from '../../src/getyourguide/schemas.js';

export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
export const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv, ['date-time']);
const SCHEMAS = {
  'get-availabilities': AvailabilityData,
  reserve: ReservationData,
  'cancel-reservation': EmptyData,
  book: BookingData,
  'cancel-booking': EmptyData,
  notify: EmptyData,
  products: SupplierProductsData,
  'product-details': ProductDetailsData,
  'pricing-categories': PricingCategoriesData,
  addons: AddonsData,
} satisfies Record<string, TSchema>;
export type Endpoint = keyof typeof SCHEMAS;
const validators = new Map(Object.entries(SCHEMAS).map(([name, schema]) => [name, ajv.compile(answer(schema))]));
const errorValidator = ajv.compile(GygErrorBody);

export interface Gyg {
  username: string;
  password: string;
  /** Calls /gyg/1/<path> with the connection's credentials; the answer must be HTTP 200 and match the endpoint's schema. */
  (method: 'GET' | 'POST', endpoint: Endpoint, path: string, body?: unknown, credentials?: string): Promise<Record<string, any>>;
}

export function gygClient(t: TestApp, username: string, password: string): Gyg {
  const client = (async (method, endpoint, path, body, credentials) => {
    const auth = Buffer.from(credentials ?? `${username}:${password}`).toString('base64');
    const response: LightMyRequestResponse = await call(t.app, undefined, method, `/gyg/1/${path}`, body, { authorization: `Basic ${auth}` });
    expect(response.statusCode, response.body).toBe(200);
    const json = response.json();
    const validate = validators.get(endpoint)!;
    expect(validate(json), `${endpoint}: ${JSON.stringify(validate.errors)} in ${response.body}`).toBe(true);
    if ('errorCode' in json) expect(errorValidator(json)).toBe(true);
    return json;
  }) as Gyg;
  client.username = username;
  client.password = password;
  return client;
}

export async function admin(t: TestApp, op: TestOperator, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const response = await call(t.app, op.adminKey, method, url, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json().data;
}

export interface Product {
  activityId: string;
  productId: string;
  timezone: string;
}

/** An activity (adult 2500, child 1500 requiring an adult) with a timeslot of `capacity` on day(`offset`) at 10:00, mapped to GYG. */
export async function mappedActivity(t: TestApp, op: TestOperator, capacity = 5, offset = 3, extra: Record<string, unknown> = {}): Promise<Product> {
  const activity = await admin(t, op, 'POST', '/api/v2/admin/activities', {
    Name: 'Harbour kayak tour',
    DurationMinutes: 90,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 2500,
    ...extra,
  });
  await admin(t, op, 'POST', `/api/v2/admin/activities/${activity.ActivityID}/ticket-types`, {
    Type: 'child',
    Name: 'Child',
    Price: 1500,
    Category: 'child',
    Requires: 'adult',
  });
  if (extra.AvailabilityType !== 'opening_hours') {
    await admin(t, op, 'POST', `/api/v2/admin/activities/${activity.ActivityID}/timeslots`, { Date: day(offset), Time: '10:00', Capacity: capacity });
  }
  const productId = `p-${activity.ActivityID.slice(2, 10)}`;
  await admin(t, op, 'PUT', `/api/v2/admin/getyourguide/products/${activity.ActivityID}`, { ProductID: productId });
  return { activityId: activity.ActivityID, productId, timezone: 'Europe/Berlin' };
}

/** Sets the connection up, switched on, with supplier ID `sup-1`: its client with the password shown once. */
export async function connect(t: TestApp, op: TestOperator): Promise<Gyg> {
  const connection = await admin(t, op, 'PATCH', '/api/v2/admin/getyourguide', { Enabled: true, SupplierID: 'sup-1' });
  expect(connection.Password).toEqual(expect.any(String));
  return gygClient(t, connection.Username, connection.Password);
}

/** The dateTime GYG uses for 10:00 Berlin time on `date`. */
export function berlin(date: string, time = '10:00'): string {
  const probe = new Date(`${date}T12:00:00Z`);
  const offset = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
    .formatToParts(probe)
    .find((p) => p.type === 'timeZoneName')!
    .value.replace('GMT', '');
  return `${date}T${time}:00${offset || '+00:00'}`;
}

export const reserveBody = (productId: string, dateTime: string, gygBookingReference: string, items = [{ category: 'ADULT', count: 2 }]) => ({
  data: { productId, dateTime, bookingItems: items, gygBookingReference },
});

export const bookBody = (
  productId: string,
  dateTime: string,
  gygBookingReference: string,
  reservationReference: string,
  items: { category: string; count: number; retailPrice?: number }[] = [{ category: 'ADULT', count: 2, retailPrice: 2600 }],
) => ({
  data: {
    productId,
    reservationReference,
    gygBookingReference,
    currency: 'EUR',
    dateTime,
    bookingItems: items,
    language: 'en',
    travelers: [{ firstName: 'John', lastName: 'Smith', email: 'john@example.com', phoneNumber: '+49 30 1231231' }],
    comment: '\n',
  },
});

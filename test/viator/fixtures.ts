// Set-up for the Viator tests: an operator with a mapped activity and an enabled connection, calls to
// /viator with its key, and every answer checked against the schemas written from Viator's published API.
import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { call, type TestApp, type TestOperator } from '../helpers/app.js';
import {
  AvailabilityCheckResponse,
  BookingAmendmentResponse,
  BookingCancellationResponse,
  BookingResponse,
  CalendarResponse,
  ContentErrorResponse,
  InternalErrorResponse,
  RedemptionResponse,
  ReserveResponse,
  SpecialOffersResponse,
  StatusErrorResponse,
  TourListResponse,
} from '../../src/viator/schemas.js';

export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
export const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
export const SUPPLIER_ID = 1004;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv, ['date-time', 'date']);

/** Each endpoint's path and the schema of its success answer (v1 endpoints answer everything with it, at 200). */
const ENDPOINTS = {
  calendar: { path: '/viator/v2/availability/calendar', schema: CalendarResponse, version: 2 },
  check: { path: '/viator/v2/availability/check', schema: AvailabilityCheckResponse, version: 2 },
  reserve: { path: '/viator/v2/reserve', schema: ReserveResponse, version: 2 },
  'special-offers': { path: '/viator/v2/product/special-offers', schema: SpecialOffersResponse, version: 2 },
  booking: { path: '/viator/booking', schema: BookingResponse, version: 1 },
  'booking-amendment': { path: '/viator/booking-amendment', schema: BookingAmendmentResponse, version: 1 },
  'booking-cancellation': { path: '/viator/booking-cancellation', schema: BookingCancellationResponse, version: 1 },
  redemption: { path: '/viator/redemption', schema: RedemptionResponse, version: 1 },
  tourlist: { path: '/viator/tourlist', schema: TourListResponse, version: 1 },
} satisfies Record<string, { path: string; schema: TSchema; version: 1 | 2 }>;
export type Endpoint = keyof typeof ENDPOINTS;

const validators = new Map(Object.entries(ENDPOINTS).map(([name, { schema }]) => [name, ajv.compile(schema)]));
const ERROR_SCHEMAS: Record<number, ReturnType<typeof ajv.compile>> = {
  400: ajv.compile(StatusErrorResponse),
  401: ajv.compile(StatusErrorResponse),
  413: ajv.compile(StatusErrorResponse),
  415: ajv.compile(StatusErrorResponse),
  422: ajv.compile(ContentErrorResponse),
  500: ajv.compile(InternalErrorResponse),
};

export interface Answer {
  status: number;
  body: Record<string, any>;
}

export interface Viator {
  key: string;
  /** POSTs to the endpoint with the connection's key (or `key`); the answer must match Viator's schema for its status. */
  (endpoint: Endpoint, body: unknown, options?: { key?: string | null }): Promise<Answer>;
}

export function viatorClient(t: TestApp, key: string): Viator {
  const client = (async (endpoint, body, options = {}) => {
    const { path, version } = ENDPOINTS[endpoint];
    const used = options.key === undefined ? key : options.key;
    const response = await call(t.app, undefined, 'POST', path, body, used === null ? {} : { 'x-api-key': used });
    const json = response.json();
    if (version === 1 || response.statusCode === 200) {
      expect(response.statusCode, response.body).toBe(200);
      const validate = validators.get(endpoint)!;
      expect(validate(json), `${endpoint}: ${JSON.stringify(validate.errors)} in ${response.body}`).toBe(true);
    } else {
      const validate = ERROR_SCHEMAS[response.statusCode];
      expect(validate, `no schema for ${response.statusCode}: ${response.body}`).toBeDefined();
      expect(validate!(json), `${endpoint} ${response.statusCode}: ${JSON.stringify(validate!.errors)} in ${response.body}`).toBe(true);
    }
    return { status: response.statusCode, body: json };
  }) as Viator;
  client.key = key;
  return client;
}

export async function admin(t: TestApp, op: TestOperator, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const response = await call(t.app, op.adminKey, method, url, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json().data;
}

export interface Product {
  activityId: string;
  optionId: string;
}

/** An activity (adult 25.00, child 15.00 requiring an adult) with a timeslot of `capacity` on day(`offset`) at 10:00, mapped to Viator. */
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
  const optionId = `opt-${activity.ActivityID.slice(2, 10)}`;
  await admin(t, op, 'PUT', `/api/v2/admin/viator/products/${activity.ActivityID}`, { ProductOptionID: optionId });
  return { activityId: activity.ActivityID, optionId };
}

/** Sets the connection up, switched on, with supplier ID 1004: its client with the key shown once. */
export async function connect(t: TestApp, op: TestOperator): Promise<Viator> {
  const connection = await admin(t, op, 'PATCH', '/api/v2/admin/viator', { Enabled: true, SupplierID: String(SUPPLIER_ID) });
  expect(connection.Key).toEqual(expect.stringMatching(/^vtr_/));
  return viatorClient(t, connection.Key);
}

export const reserveBody = (optionId: string, travelDate: string, tickets = [{ type: 'ADULT', quantity: 2 }], startTime = '10:00') => ({
  supplierId: SUPPLIER_ID,
  productOptionId: optionId,
  startTime,
  travelDate,
  tickets,
  totalTravelers: tickets.reduce((sum, ticket) => sum + ticket.quantity, 0),
});

const base = (requestType: string) => ({
  ApiKey: undefined as string | undefined,
  ResellerId: '1000',
  SupplierId: SUPPLIER_ID,
  ExternalReference: `ext-${requestType}-${Math.random().toString(36).slice(2, 10)}`,
  Timestamp: new Date().toISOString(),
});

export const travellers = (bands: string[]) =>
  bands.map((band, i) => ({
    TravellerIdentifier: String(i + 1),
    GivenName: `Given${i}`,
    Surname: `Surname${i}`,
    AgeBand: band,
    LeadTraveller: i === 0,
  }));

export function bookingBody(
  optionId: string,
  travelDate: string,
  viatorReference: string,
  hold: string | undefined,
  bands: string[] = ['Adult', 'Adult'],
  extra: Record<string, unknown> = {},
) {
  const mix = { Adult: 0, Child: 0, Youth: 0, Infant: 0, Senior: 0, Total: bands.length } as Record<string, number>;
  for (const band of bands) mix[band] = (mix[band] ?? 0) + 1;
  return {
    requestType: 'BookingRequest',
    data: {
      ...base('booking'),
      BookingReference: viatorReference,
      TravelDate: travelDate,
      SupplierProductCode: optionId,
      Location: 'Berlin, Germany',
      TourOptions: { SupplierOptionCode: optionId, TourDepartureTime: '10:00:00' },
      CurrencyCode: 'EUR',
      Amount: 40,
      Traveller: travellers(bands),
      TravellerMix: mix,
      RequiredInfo: { Question: [{ QuestionText: 'Shoe size', QuestionAnswer: '42' }] },
      SpecialRequirement: 'Vegetarian lunch',
      PickupPoint: 'Hotel Adlon',
      ContactDetail: { ContactType: 'ALTERNATE', ContactName: 'Given0 Surname0', ContactValue: '+49 30 1234567' },
      ContactEmail: 'MSG-1+BR-1@expmessaging.tripadvisor.com',
      ...(hold !== undefined && { AvailabilityHoldReference: hold }),
      ...extra,
    },
  };
}

export function amendmentBody(
  optionId: string,
  travelDate: string,
  viatorReference: string,
  confirmation: string,
  bands: string[],
  time = '10:00:00',
) {
  const booking = bookingBody(optionId, travelDate, viatorReference, undefined, bands, {
    TourOptions: { SupplierOptionCode: optionId, TourDepartureTime: time },
  });
  return {
    requestType: 'BookingAmendmentRequest',
    data: { ...booking.data, SupplierConfirmationNumber: confirmation, SupplierNote: 'Changed by the traveller' },
  };
}

export const cancellationBody = (viatorReference: string, confirmation: string) => ({
  requestType: 'BookingCancellationRequest',
  data: {
    ...base('cancel'),
    BookingReference: viatorReference,
    SupplierConfirmationNumber: confirmation,
    CancelDate: new Date().toISOString().slice(0, 10),
    Author: 'Customer Service',
    Reason: 'No longer traveling',
  },
});

export const redemptionBody = (viatorReference: string, confirmation: string, travelDate: string) => ({
  requestType: 'RedemptionRequest',
  data: { ...base('redemption'), BookingReference: viatorReference, SupplierConfirmationNumber: confirmation, TravelDate: travelDate },
});

export const tourListBody = () => ({ requestType: 'TourListRequest', data: base('tourlist') });

/** Seats of the timeslot of `activityId` on `date` as the partner API shows them. */
export async function partnerSeats(t: TestApp, op: TestOperator, activityId: string, date: string): Promise<number> {
  const response = await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/availability/${activityId}/timeslots?Date=${date}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0]?.Available ?? 0;
}

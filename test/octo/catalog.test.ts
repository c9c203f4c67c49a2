// OCTo supplier, capabilities and products, every reply checked against the OCTo document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { octoClient, type OctoCall } from './fixtures.js';
import { octoBody, octoError } from './spec.js';
import { picture } from '../catalog/photo-files.js';

let t: TestApp;
let op: TestOperator;
let octo: OctoCall;
let kayak: { ID: number; ActivityID: string };
let archived: string;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Fjord Adventures');
  octo = octoClient(t, op.otaKey);
  kayak = await createActivity(t, op.adminKey, {
    Name: 'Sunset Kayak',
    Timezone: 'Europe/Oslo',
    Currency: 'NOK',
    UnitPrice: 45000,
    MaxParticipantsPerBooking: 6,
  });
  await createTimeslot(t, op.adminKey, kayak.ActivityID, { Date: dateFromToday(3), Time: '17:30', Capacity: 8 });
  await createTimeslot(t, op.adminKey, kayak.ActivityID, { Date: dateFromToday(4), Time: '09:00', Capacity: 8 });
  await createTimeslot(t, op.adminKey, kayak.ActivityID, { Date: dateFromToday(-2), Time: '06:00', Capacity: 8 });
  archived = (await createActivity(t, op.adminKey, { Name: 'Old tour' })).ActivityID;
  await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${archived}`, { Archived: true });
});
afterAll(() => t.close());

describe('GET /octo/supplier and /octo/capabilities', () => {
  it('names the operator of the key and this endpoint', async () => {
    const supplier = octoBody(await octo('GET', '/supplier'), 'Supplier');
    expect(supplier).toMatchObject({ id: String(op.operatorId), name: 'Fjord Adventures', endpoint: 'http://slotbook.test/octo' });
  });

  it('lists octo/pricing, octo/questions and octo/content as the capabilities', async () => {
    const capabilities = octoBody(await octo('GET', '/capabilities'), 'Capability', true);
    expect(capabilities.map((c: { id: string }) => c.id)).toEqual(['octo/pricing', 'octo/questions', 'octo/content']);
  });
});

describe('GET /octo/products', () => {
  it('lists each live activity as a product with the option DEFAULT and the unit adult', async () => {
    const response = await octo('GET', '/products');
    expect(response.headers['octo-capabilities']).toBe('');
    const products = octoBody(response, 'Product', true);
    expect(products.map((p: { id: string }) => p.id)).toEqual([kayak.ActivityID]);
    const [product] = products;
    expect(product).toMatchObject({
      id: kayak.ActivityID,
      internalName: 'Sunset Kayak',
      reference: String(kayak.ID),
      timeZone: 'Europe/Oslo',
      availabilityType: 'START_TIME',
      availabilityRequired: true,
      allowFreesale: false,
      deliveryMethods: ['VOUCHER'],
      redemptionMethod: 'MANIFEST',
    });
    expect(product.options).toHaveLength(1);
    expect(product.options[0]).toMatchObject({
      id: 'DEFAULT',
      default: true,
      availabilityLocalStartTimes: ['09:00', '17:30'],
      requiredContactFields: ['firstName', 'lastName'],
      restrictions: { minUnits: 1, maxUnits: 6 },
    });
    expect(product.options[0].units).toEqual([expect.objectContaining({ id: 'adult', type: 'ADULT' })]);
    expect(product).not.toHaveProperty('defaultCurrency');
    expect(product.options[0].units[0]).not.toHaveProperty('pricingFrom');
  });

  it('adds prices in minor units with the octo/pricing capability, and says so in Octo-Capabilities', async () => {
    const response = await octo('GET', '/products', undefined, 'octo/pricing, octo/pickups');
    expect(response.headers['octo-capabilities']).toBe('octo/pricing');
    const [product] = octoBody(response, 'Product', true);
    expect(product).toMatchObject({ defaultCurrency: 'NOK', availableCurrencies: ['NOK'], pricingPer: 'UNIT' });
    expect(product.options[0].units[0].pricingFrom).toEqual([
      { original: 45000, retail: 45000, net: null, currency: 'NOK', currencyPrecision: 2, includedTaxes: [] },
    ]);
  });

  it('adds the words and photos with octo/content: title, inclusions, meeting point, cover and gallery', async () => {
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${kayak.ActivityID}`, {
      Description: 'Paddle into the sunset',
      Inclusions: ['Kayak and paddle'],
      WhatToBring: ['Warm clothes'],
      MeetingPoint: { Address: 'Pier 3, Bergen', MapUrl: null, Latitude: null, Longitude: null },
    });
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/v2/admin/activities/${kayak.ActivityID}/photos?Alt=The%20fjord`,
      headers: { authorization: `Bearer ${op.adminKey}`, 'content-type': 'image/jpeg' },
      payload: await picture(600, 400),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const response = await octo('GET', `/products/${kayak.ActivityID}`, undefined, 'octo/content');
    expect(response.headers['octo-capabilities']).toBe('octo/content');
    const product = octoBody(response, 'Product');
    expect(product).toMatchObject({
      title: 'Sunset Kayak',
      description: 'Paddle into the sunset',
      inclusions: ['Kayak and paddle'],
      redemptionInstructions: 'Meeting point: Pier 3, Bergen\nWhat to bring: Warm clothes',
      coverImageUrl: upload.json().data.Url,
      galleryImages: [{ url: upload.json().data.Url, title: 'The fjord', caption: null }],
    });
    expect(octoBody(await octo('GET', `/products/${kayak.ActivityID}`), 'Product')).not.toHaveProperty('galleryImages');
  });

  it("redirects the OCTo document's trailing-slash path to /octo/products", async () => {
    const response = await octo('GET', '/products/');
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/octo/products');
  });
});

describe('GET /octo/products/{id}', () => {
  it('answers one product', async () => {
    const product = octoBody(await octo('GET', `/products/${kayak.ActivityID}`, undefined, 'octo/pricing'), 'Product');
    expect(product.id).toBe(kayak.ActivityID);
    expect(product.options[0].pricingFrom).toHaveLength(1);
  });

  it("is INVALID_PRODUCT_ID for an unknown, archived, malformed or other operator's id", async () => {
    const other = await t.newOperator();
    const theirs = (await createActivity(t, other.adminKey)).ActivityID;
    for (const id of ['s_DoesNotExist99', archived, 'kayak', theirs]) {
      const error = octoError(await octo('GET', `/products/${id}`), 400, 'INVALID_PRODUCT_ID');
      expect(error.productId).toBe(id);
    }
  });
});

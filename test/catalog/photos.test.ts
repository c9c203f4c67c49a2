// Activity photos (issue 26, item 5): uploaded by staff, judged by their bytes (415 for anything but JPEG
// or PNG, SVG included; 422 for a damaged, CMYK, too small or too large picture, judged on the header
// the decoder reads; 413 past the byte limit; 409 past the count), resized once to a few widths and served with a year's cache; shown in the partner
// API's products, the booking pages' storefront and the admin API; removed again; audited.
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, problemOf, PUBLIC_URL, type TestApp, type TestOperator } from '../helpers/app.js';
import { PDF, PNG, WEBP } from '../questions/files.js';
import { openShop } from '../shop/fixtures.js';
import { flatJpeg, picture, withOrientation } from './photo-files.js';
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_ACTIVITY } from '../../src/catalog/photos/rules.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let activityId: string;

const upload = (body: Buffer, query = '', key = op.adminKey, activity = activityId) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/admin/activities/${activity}/photos${query}`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
    payload: body,
  });

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Photo Kayaks');
  other = await t.newOperator('Other Tours');
  const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', {
    Name: 'Sunset Kayak',
    DurationMinutes: 120,
    Timezone: 'Europe/Berlin',
    Currency: 'EUR',
    UnitPrice: 4500,
  });
  activityId = created.json().data.ActivityID;
  await openShop(t, op.adminKey);
});
afterAll(() => t.close());

// Decoding is pure JavaScript: on a machine busy with other test files, an upload can take seconds.
describe('activity photos', { timeout: 90_000 }, () => {
  let first: { ID: number; Url: string; Sizes: { Width: number; Height: number; Url: string }[]; Srcset: string };

  it('takes a JPEG, resizes it to 480, 960 and 1600 pixels wide and serves each size with a year of caching', async () => {
    const response = await upload(await picture(2000, 500), '?Alt=Kayaks%20on%20the%20lake');
    expect(response.statusCode, response.body).toBe(201);
    first = response.json().data;
    expect(first).toMatchObject({ Alt: 'Kayaks on the lake', Width: 2000, Height: 500 });
    expect(first.Sizes.map((size) => [size.Width, size.Height])).toEqual([
      [480, 120],
      [960, 240],
      [1600, 400],
    ]);
    expect(first.Url).toBe(first.Sizes[2]!.Url);
    expect(first.Url.startsWith(`${PUBLIC_URL}/photos/${op.operatorId}/`)).toBe(true);
    expect(first.Srcset).toBe(first.Sizes.map((size) => `${size.Url} ${size.Width}w`).join(', '));

    for (const size of first.Sizes) {
      const served = await t.app.inject({ method: 'GET', url: size.Url.slice(PUBLIC_URL.length) });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const decoded = await Jimp.read(served.rawPayload);
      expect([decoded.width, decoded.height]).toEqual([size.Width, size.Height]);
    }
  });

  it('never makes a size wider than the original, and takes a PNG (served as JPEG)', async () => {
    const response = await upload(await picture(700, 500, 'image/png'));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.Sizes.map((size: { Width: number }) => size.Width)).toEqual([480, 700]);
    expect(response.json().data.Alt).toBe('');
  });

  it('shows the photos in order in the partner API, the admin API and the booking pages', async () => {
    const partner = await call(t.app, op.otaKey, 'GET', `/api/v2/ota/${op.partner}/products`);
    const product = partner.json().data.find((p: { ActivityID: string }) => p.ActivityID === activityId);
    expect(product.Photos.map((photo: { ID: number }) => photo.ID)[0]).toBe(first.ID);
    expect(product.Photos).toHaveLength(2);
    const admin = await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${activityId}`);
    expect(admin.json().data.Photos[0]).toEqual(first);
    // The booking pages are served by slotbook itself: their addresses are on the same site.
    const shop = await t.app.inject({ method: 'GET', url: `/api/v2/shop/${op.operatorId}/storefront` });
    expect(shop.statusCode, shop.body).toBe(200);
    const photo = shop.json().data.Activities[0].Photos[0];
    expect(photo.Url).toBe(first.Url.slice(PUBLIC_URL.length));
    expect(photo.Srcset.startsWith(`/photos/${op.operatorId}/`)).toBe(true);
  });

  it('refuses what is not a JPEG or PNG by its bytes, whatever the Content-Type says (415)', async () => {
    for (const body of [PDF, WEBP, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), Buffer.alloc(0)]) {
      const problem = problemOf(await upload(body), 415, 'unsupported-media-type');
      expect(problem.detail).toMatch(/JPEG or PNG/);
    }
  });

  it('refuses a damaged picture, one too small and one of too many pixels, naming Photo (422)', async () => {
    const damaged = Buffer.concat([(await picture(400, 400)).subarray(0, 400), Buffer.alloc(2000, 0x55)]);
    expect(problemOf(await upload(damaged), 422, 'validation').errors?.[0]?.field).toBe('Photo');
    expect(problemOf(await upload(PNG), 422, 'validation').errors?.[0]?.message).toMatch(/at least 200/);
    // A PNG whose header declares 10000 x 10000 pixels: refused before anything decodes it.
    const huge = Buffer.from(PNG);
    huge.writeUInt32BE(10_000, 16);
    huge.writeUInt32BE(10_000, 20);
    expect(problemOf(await upload(huge), 422, 'validation').errors?.[0]?.message).toMatch(/megapixels/);
    const large = problemOf(await upload(flatJpeg(6000, 6000)), 422, 'validation').errors?.[0];
    expect(large).toEqual({ field: 'Photo', message: 'The photo is 6000×6000 pixels; at most 30 megapixels' });
  });

  it('refuses a CMYK JPEG, saying how to send it (422)', async () => {
    const problem = problemOf(await upload(flatJpeg(400, 300, 'cmyk')), 422, 'validation');
    expect(problem.errors?.[0]).toMatchObject({ field: 'Photo', message: expect.stringMatching(/CMYK.*save it as an RGB JPEG/) });
  });

  it("turns a photo as its EXIF orientation says, and gives the turned picture's size", async () => {
    // Stored 4000 x 3000 (a 12-megapixel phone photo, decoded scaled to 2000 x 1500), shown 3000 x 4000.
    const response = await upload(withOrientation(flatJpeg(4000, 3000), 6));
    expect(response.statusCode, response.body).toBe(201);
    const photo = response.json().data;
    expect([photo.Width, photo.Height]).toEqual([3000, 4000]);
    expect(photo.Sizes.map((size: { Width: number; Height: number }) => [size.Width, size.Height])).toEqual([
      [480, 640],
      [960, 1280],
      [1600, 2133],
    ]);
    await call(t.app, op.adminKey, 'DELETE', `/api/v2/admin/activities/${activityId}/photos/${photo.ID}`);
  });

  it('refuses a body past the byte limit (413)', async () => {
    const big = Buffer.concat([await picture(300, 300), Buffer.alloc(MAX_PHOTO_BYTES, 1)]);
    problemOf(await upload(big), 413, 'payload-too-large');
  });

  it("refuses the same photo twice, and another operator's activity is not found", async () => {
    const again = await upload(await picture(2000, 500));
    problemOf(again, 409, 'conflict');
    problemOf(await upload(await picture(300, 300), '', other.adminKey), 404, 'not-found');
    expect((await upload(await picture(300, 300), '', op.otaKey)).statusCode).toBe(403);
  });

  it(`keeps at most ${MAX_PHOTOS_PER_ACTIVITY} photos per activity (409)`, async () => {
    const have = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/activities/${activityId}`)).json().data.Photos.length;
    for (let i = have; i < MAX_PHOTOS_PER_ACTIVITY; i++) {
      expect((await upload(await picture(240, 240, 'image/jpeg', 0x10101fff + i * 0x1000))).statusCode).toBe(201);
    }
    const problem = problemOf(await upload(await picture(240, 240, 'image/jpeg', 0xffeeddff)), 409, 'conflict');
    expect(problem.detail).toMatch(/remove one first/);
  });

  it('changes the alternative text and removes a photo, whose addresses then answer 404; each change is audited', async () => {
    const path = `/api/v2/admin/activities/${activityId}/photos/${first.ID}`;
    const changed = await call(t.app, op.adminKey, 'PATCH', path, { Alt: 'Two kayaks at sunset' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.Alt).toBe('Two kayaks at sunset');
    problemOf(await call(t.app, other.adminKey, 'DELETE', path), 404, 'not-found');
    expect((await call(t.app, op.adminKey, 'DELETE', path)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: first.Url.slice(PUBLIC_URL.length) })).statusCode).toBe(404);
    problemOf(await call(t.app, op.adminKey, 'DELETE', path), 404, 'not-found');
    const actions = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Limit=100'))
      .json()
      .data.map((entry: { Action: string }) => entry.Action);
    expect(actions).toEqual(expect.arrayContaining(['activity.photo-add', 'activity.photo-update', 'activity.photo-delete']));
  });

  it('answers 404 for a photo address that names no photo', async () => {
    const wrong = `/photos/${op.operatorId}/999999-${'A'.repeat(22)}-480.jpg`;
    expect((await t.app.inject({ method: 'GET', url: wrong })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/photos/${other.operatorId}/1-${'A'.repeat(22)}-480.jpg` })).statusCode).toBe(404);
  });
});

// Small files of each kind a waiver takes, as their first bytes make them (what the upload check reads),
// and the calls that upload them.
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

export const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n', 'latin1');
export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000049454e44ae426082', 'hex');
export const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(14)]);

/** An ISO base media file with the brand a phone's HEIC photo has. */
export function heif(brand: 'heic' | 'mif1'): Buffer {
  const box = Buffer.alloc(32);
  box.writeUInt32BE(24, 0);
  box.write('ftyp', 4);
  box.write(brand, 8);
  box.write('mif1', 16);
  box.write('heic', 20);
  return box;
}

/** A PNG padded to `size` bytes. */
export const pngOfSize = (size: number): Buffer => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 7)]);

export function uploadAs(t: TestApp, key: string, payload: Buffer | string, contentType = 'application/octet-stream', partner = 'viator') {
  return t.app.inject({
    method: 'POST',
    url: `/api/v2/ota/${partner}/uploads`,
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    payload,
  });
}

export function uploadToBasket(
  t: TestApp,
  operatorId: number,
  token: string,
  payload: Buffer | string,
  contentType = 'application/octet-stream',
  address = '203.0.113.7',
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v2/shop/${operatorId}/baskets/${token}/uploads`,
    headers: { 'content-type': contentType },
    payload,
    remoteAddress: address,
  });
}

/** Uploads and answers the FileID (asserting a 201). */
export function fileIdOf(response: Awaited<ReturnType<typeof uploadAs>>): string {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.FileID as string;
}

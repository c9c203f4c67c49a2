// Shared set-up for the shop tests: opening an operator's shop, and public calls from a given client
// address (the shop's limits count per address).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';
import { setShopOpen } from '../../src/shop/settings.js';

export async function openShop(t: TestApp, adminKey: string, Open = true): Promise<void> {
  const response = await call(t.app, adminKey, 'PATCH', '/api/v2/admin/shop', { Open });
  expect(response.statusCode, response.body).toBe(200);
}

/** Opens the shop in the database, for tests whose keys must not spend a request on it (rate limits). */
export async function openShopQuietly(t: TestApp, operatorId: number): Promise<void> {
  await setShopOpen(t.db.kysely, operatorId, true);
}

/** A keyless call from the client address `ip` (what request.ip answers). */
export function fromAddress(
  app: FastifyInstance,
  ip: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, remoteAddress: ip, headers, ...(body !== undefined && { payload: body as object }) });
}

export const GOOD_CARD = { Provider: 'test', CardNumber: '4242424242424242' };
export const DECLINED_CARD = { Provider: 'test', CardNumber: '4000000000000002' };

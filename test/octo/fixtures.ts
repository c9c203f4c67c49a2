// Set-up for the OCTo tests: an app on a fresh database, an operator with a reseller key (marketplace
// "viator"), and calls to /octo with the Octo-Capabilities header.
import type { LightMyRequestResponse } from 'fastify';
import { call, type TestApp } from '../helpers/app.js';

export const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };
export const contact = { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com', phoneNumber: '+15551234567', locales: ['en'] };

export type OctoCall = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  capabilities?: string,
) => Promise<LightMyRequestResponse>;

/** Calls /octo with `key`; `url` is relative to /octo. */
export function octoClient(t: TestApp, key: string): OctoCall {
  return (method, url, body, capabilities) =>
    call(t.app, key, method, `/octo${url}`, body, capabilities === undefined ? {} : { 'octo-capabilities': capabilities });
}

// The guest's side of a waitlist place: ask for it in the shop, find the confirmation e-mail in the
// operator's outbox, and press the confirmation page's button.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';

export interface OutboxEmail {
  ID: number;
  Kind: string;
  To: string;
  Subject: string;
  Body: string;
  WaitlistID: number | null;
}

export async function outbox(t: TestApp, adminKey: string): Promise<OutboxEmail[]> {
  const response = await call(t.app, adminKey, 'GET', '/api/v2/admin/emails?Limit=500');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** The confirmation e-mails sent to `to`, newest first. */
export async function confirmationEmails(t: TestApp, adminKey: string, to: string): Promise<OutboxEmail[]> {
  return (await outbox(t, adminKey)).filter((email) => email.Kind === 'waitlist-confirmation' && email.To === to);
}

/** The path of the confirmation page an e-mail links to. */
export function linkOf(email: OutboxEmail): string {
  const match = /http:\/\/slotbook\.test(\/waitlist\/confirm\/[A-Za-z0-9_-]{22})\n/.exec(email.Body);
  expect(match, email.Body).not.toBeNull();
  return match![1]!;
}

/** What the page's form sends when its button is pressed. */
export function pressConfirm(t: TestApp, path: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
}

/** Joins and confirms from the newest confirmation e-mail to the customer's address; answers the WaitlistID. */
export async function joinConfirmed(t: TestApp, adminKey: string, join: () => Promise<LightMyRequestResponse>, email: string): Promise<number> {
  const joined = await join();
  expect(joined.statusCode, joined.body).toBe(202);
  const [sent] = await confirmationEmails(t, adminKey, email.toLowerCase());
  expect(sent).toBeDefined();
  expect((await pressConfirm(t, linkOf(sent!))).statusCode).toBe(303);
  return sent!.WaitlistID!;
}

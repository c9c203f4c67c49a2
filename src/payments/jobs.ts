// The payments' periodic work, started by server.ts: Stripe refunds recorded in a transaction (a guest's
// cancellation refunds by the rule) are sent after its commit; the code that committed sends them at once,
// and this job sends any left behind (a process stopped between the commit and the call). Safe with any
// number of processes: every send of a refund uses its own idempotency key, and only a pending refund moves.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection.js';
import { startPeriodic } from '../lib/periodic.js';
import type { InstanceKeys } from '../secrets/keys.js';
import { sendRefund } from './providers/stripe/refunds.js';
import { unsentRefunds } from './store.js';
import type { StripeSettings } from './providers/stripe/gateway.js';

/** What sending a refund to Stripe needs: the instance's keys (the account's sealed key) and where Stripe is. */
export interface RefundSending {
  keys: InstanceKeys;
  settings: StripeSettings;
}

/** Sends the pending Stripe refunds that Stripe never answered (of one operator, or all); answers how many were sent. */
export async function sendPendingRefunds(db: Db, keys: InstanceKeys, settings: StripeSettings, operatorId?: number): Promise<number> {
  const refunds = await unsentRefunds(db.kysely, 50, operatorId);
  for (const refund of refunds) await sendRefund(db, keys, settings, refund);
  return refunds.length;
}

export function startRefundSender(
  db: Db,
  keys: InstanceKeys,
  settings: StripeSettings,
  log: FastifyBaseLogger,
  intervalMs = 30_000,
): () => Promise<void> {
  return startPeriodic(log, 'refund sender', intervalMs, () => sendPendingRefunds(db, keys, settings));
}

// The e-mail worker. Each server process runs one; they share nothing but the database. A tick delivers
// the e-mails that are due (what differs by kind of e-mail is kinds.ts's):
//
//   claim (conditional update, own transaction) -> send through nodemailer -> settle (own transaction):
//   sent + the built-in meter entry together, or back to the queue with backoff.
//
// Metering happens only in the transaction that moves the e-mail from `sending` (claimed by this worker)
// to `sent`, so an e-mail is metered at most once however often its sending is retried, and only when a
// server accepted it. A crash after the SMTP server accepted a message but before that commit re-sends it
// once the claim lapses: delivery is at least once, metering exactly once per e-mail marked sent.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { addSeconds, unixNow, type UnixSeconds } from '../lib/clock.js';
import { recordUsage } from '../usage/service.js';
import type { BuiltInMeter } from '../usage/meters.js';
import { createMailer, RecipientRefused, type Mailer } from './mailer.js';
import { loadInstanceKeys, type InstanceKeys } from '../secrets/keys.js';
import { hooksOf } from './kinds.js';
import { startPeriodic } from '../lib/periodic.js';
import { tallyQueue } from '../hooks/tallies.js';
import { claimEmail, findDueEmailIds, markAttemptFailed, markSent, operatorName, type EmailRow } from './store.js';

/** Seconds to wait after the 1st, 2nd, ... failed attempt; after the last one the e-mail is failed. */
export const RETRY_DELAYS = [60, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** How long a claim lasts: far longer than an SMTP exchange may take (mailer.ts), so a live send keeps it. */
export const CLAIM_SECONDS = 5 * 60;
const BATCH = 50;

export interface Delivery {
  mailer: Mailer;
  /** The sender address (config.emailFrom); the operator's name is shown with it. */
  from: string;
  /** Names this worker in claims; unique per process. */
  workerId: string;
  /** The instance's keys, for what the kinds of e-mail do at sending (sealed bodies, links: kinds.ts). */
  keys: InstanceKeys;
  /** PUBLIC_URL, for the guest's manage link filled in at sending ({{ManageBookingUrl}}); without it the link is a path. */
  publicUrl?: string;
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

export const newWorkerId = (): string => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Delivers every e-mail due at `now` (Unix seconds), while `keepGoing` says so (a shutdown stops it after
 * the e-mail under way: that one is sent and settled, the next one not claimed). Tests call it directly
 * to drive time.
 */
export async function runDueEmails(db: Db, delivery: Delivery, now = unixNow(), keepGoing: () => boolean = () => true): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  try {
    return await runBatches(db, delivery, now, keepGoing, report);
  } finally {
    tallyQueue('email', report);
  }
}

async function runBatches(db: Db, delivery: Delivery, now: UnixSeconds, keepGoing: () => boolean, report: DeliveryReport): Promise<DeliveryReport> {
  for (;;) {
    const ids = await findDueEmailIds(db.kysely, now, BATCH);
    let claimedAny = false;
    for (const id of ids) {
      if (!keepGoing()) return report;
      const email = await db.write((tx) => claimEmail(tx, id, delivery.workerId, now, addSeconds(now, CLAIM_SECONDS)));
      if (!email) continue; // another worker was first
      claimedAny = true;
      report[await deliver(db, delivery, email, now)] += 1;
    }
    // Stop when a batch yielded nothing of ours, so e-mails that failed just now are not retried in a loop.
    if (ids.length < BATCH || !claimedAny) return report;
  }
}

async function deliver(db: Db, delivery: Delivery, email: EmailRow, now: UnixSeconds): Promise<keyof DeliveryReport> {
  const name = (
    await operatorName(db.kysely, email.operator_id, email.kind !== 'staff' && email.kind !== 'webhook' && email.kind !== 'payment')
  ).replace(/["\\\r\n]/g, '');
  const hooks = hooksOf(email.kind);
  let result: { messageId: string };
  try {
    const context = { db: db.kysely, keys: delivery.keys, publicUrl: delivery.publicUrl ?? '' };
    const parts = hooks.messageAtSending
      ? await hooks.messageAtSending(context, email)
      : { text: hooks.textAtSending ? await hooks.textAtSending(context, email) : email.body };
    result = await delivery.mailer.send({ from: `"${name}" <${delivery.from}>`, to: email.to_address, subject: email.subject, ...parts });
  } catch (error) {
    // A refused recipient stays refused: no retry.
    const delay = error instanceof RecipientRefused ? undefined : RETRY_DELAYS[email.attempts - 1];
    const message = error instanceof Error ? error.message : String(error);
    await db.write((tx) =>
      markAttemptFailed(tx, email.id, delivery.workerId, {
        status: delay === undefined ? 'failed' : 'queued',
        nextAttemptAt: addSeconds(now, delay ?? 0),
        error: message.slice(0, 1000),
      }),
    );
    return delay === undefined ? 'failed' : 'retrying';
  }
  await db.write(async (tx) => {
    if (!(await markSent(tx, email.id, delivery.workerId, { transport: delivery.mailer.transport, messageId: result.messageId }))) return;
    if (email.meter !== null) {
      // OccurredAt is the real moment of sending, whatever clock the caller drives dueness with.
      await recordUsage(tx, email.operator_id, {
        meter: email.meter as BuiltInMeter,
        micros: 1_000_000n,
        extraInfo: email.meter_extra_info,
        occurredAt: unixNow(),
      });
    }
    await hooks.afterSent?.(tx, email);
  });
  return 'sent';
}

export interface WorkerOptions {
  intervalMs?: number;
  mailer?: Mailer;
}

/** Starts the worker of this process: a tick every few seconds. Returns the function that stops it. */
export function startEmailWorker(db: Db, config: Config, log: FastifyBaseLogger, options: WorkerOptions = {}): () => Promise<void> {
  const mailer = options.mailer ?? createMailer(config);
  let delivery: Delivery | undefined;
  let stopping = false;
  const stop = startPeriodic(log, 'e-mail worker', options.intervalMs ?? 5_000, async () => {
    delivery ??= {
      mailer,
      from: config.emailFrom,
      workerId: newWorkerId(),
      keys: await loadInstanceKeys(db.kysely, config.secretKey),
      publicUrl: config.publicUrl,
    };
    await runDueEmails(db, delivery, unixNow(), () => !stopping);
  });
  return async () => {
    stopping = true;
    await stop();
    mailer.close();
  };
}

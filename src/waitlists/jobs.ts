// The waitlists' periodic work, started by server.ts: freed seats are offered to waitlisted guests (which
// queues their e-mails). Safe with any number of processes (offers.ts claims each entry conditionally).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { unixNow } from '../lib/clock.js';
import { startPeriodic } from '../lib/periodic.js';
import { offerFreedSeats } from './offers.js';

export function startWaitlistOffers(db: Db, config: Config, log: FastifyBaseLogger, intervalMs = 5_000): () => Promise<void> {
  return startPeriodic(log, 'waitlist offers', intervalMs, () => offerFreedSeats(db, config, unixNow()));
}

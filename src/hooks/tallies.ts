// What the process counts of the business as it happens, for the metrics (docs/observability.md): bookings
// confirmed and cancelled per channel, seats sold, holds that lapsed, and the outcomes of the e-mail,
// webhook and GetYourGuide queues. The domains call these at their lowest shared points; a count is taken
// only once its transaction has committed. Nothing listens unless the metrics are on (METRICS_PORT): then
// the composition installs the counters, else each call is one check of an unset variable.
import { afterCommit, type Tx } from '../db/connection.js';

export type BookingTally = 'confirmed' | 'cancelled';
export type QueueName = 'email' | 'webhook' | 'gyg_push';
export type QueueOutcome = 'sent' | 'retrying' | 'failed';

export interface TallySink {
  booking(change: BookingTally, channel: string, seats: number): void;
  holdsLapsed(count: number): void;
  queue(queue: QueueName, outcome: QueueOutcome, count: number): void;
}

let sink: TallySink | undefined;

/** The composition's counters (or undefined again, for tests). */
export function installTallies(counters: TallySink | undefined): void {
  sink = counters;
}

/**
 * The channel of a booking as metrics label it: the source (partner, online, pos, ...), except the
 * marketplaces slotbook itself connects to, named (getyourguide). Other marketplaces' names are the
 * operator's own key names, too many for a label.
 */
export function channelOf(booking: { source: string; partner: string | null }): string {
  return booking.source === 'partner' && booking.partner === 'getyourguide' ? 'getyourguide' : booking.source;
}

export function tallyBooking(tx: Tx, change: BookingTally, booking: { source: string; partner: string | null; seats: number | string }): void {
  const counters = sink;
  if (!counters) return;
  const channel = channelOf(booking);
  const seats = Number(booking.seats);
  afterCommit(tx, () => counters.booking(change, channel, seats));
}

export function tallyLapsedHolds(tx: Tx, count: number): void {
  const counters = sink;
  if (counters && count > 0) afterCommit(tx, () => counters.holdsLapsed(count));
}

/** Outcomes of a queue's run, counted after the run (each outcome was committed on its own). */
export function tallyQueue(queue: QueueName, outcomes: Partial<Record<QueueOutcome, number>>): void {
  if (!sink) return;
  for (const [outcome, count] of Object.entries(outcomes) as [QueueOutcome, number][]) if (count > 0) sink.queue(queue, outcome, count);
}

// Whether requests are keeping the server busy: the background workers ask, and step back while they are
// (src/webhooks/worker.ts). Two figures, each a moving average over about a quarter of a second:
// - requests in flight, counted on the HTTP server itself, so that a worker's own work never reads as
//   requests;
// - the event loop's utilisation (the share of time it was running code rather than waiting), which tells
//   requests that keep the process busy from requests that merely wait (on PostgreSQL, on a slow client).
// Requests in flight alone called a server busy at a few hundred requests a second with the CPU mostly
// idle, and the workers then held back for nothing.
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RequestGauge {
  /** Requests in flight, averaged over about the last quarter of a second. */
  load(): number;
  /** The share of about the last quarter of a second that the event loop was running code (0 to 1). */
  utilisation(): number;
}

/** An average that forgets with this time constant (ms): a burst is seen within it, its end too. */
const TIME_CONSTANT_MS = 250;

/** A figure's moving average: `advance(value)` moves it on to now with the value it had since the last call. */
function movingAverage() {
  let average = 0;
  let at = performance.now();
  return {
    advance(value: number): number {
      const now = performance.now();
      const kept = Math.exp(-(now - at) / TIME_CONSTANT_MS);
      average = average * kept + value * (1 - kept);
      at = now;
      return average;
    },
  };
}

export function watchRequests(server: Pick<Server, 'on'>): RequestGauge {
  let inFlight = 0;
  const requests = movingAverage();
  // The count only changes at these moments: the average moves on to now with the old count, then it changes.
  server.on('request', (_request, response) => {
    requests.advance(inFlight);
    inFlight += 1;
    // 'close' comes once for every response: finished, or cut off with its connection.
    response.once('close', () => {
      requests.advance(inFlight);
      inFlight -= 1;
    });
  });
  const loop = movingAverage();
  let sinceLast = performance.eventLoopUtilization();
  return {
    load: () => requests.advance(inFlight),
    utilisation() {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, sinceLast).utilization;
      sinceLast = now;
      return loop.advance(Number.isFinite(share) ? share : 0);
    },
  };
}

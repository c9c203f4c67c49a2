// How many requests the server is serving, as a moving average: the background workers ask it whether
// requests are there to be slowed down, and step back while they are (src/webhooks/deliveries/worker.ts). Counted on
// the HTTP server itself, so a worker's own work never reads as load (as the event loop's utilisation
// does, and as a profiler's sampling does too).
import type { Server } from 'node:http';

export interface RequestGauge {
  /** Requests in flight, averaged over about the last quarter of a second. */
  load(): number;
}

/** An average that forgets with this time constant (ms): a burst is seen within it, its end too. */
const TIME_CONSTANT_MS = 250;

export function watchRequests(server: Pick<Server, 'on'>): RequestGauge {
  let inFlight = 0;
  let average = 0;
  let at = performance.now();
  // The average over time of a count that only changes at these moments: move it on to now, then change.
  const advance = () => {
    const now = performance.now();
    const kept = Math.exp(-(now - at) / TIME_CONSTANT_MS);
    average = average * kept + inFlight * (1 - kept);
    at = now;
  };
  server.on('request', (_request, response) => {
    advance();
    inFlight += 1;
    // 'close' comes once for every response: finished, or cut off with its connection.
    response.once('close', () => {
      advance();
      inFlight -= 1;
    });
  });
  return {
    load() {
      advance();
      return average;
    },
  };
}

/** No requests at all (tests, tools that run a worker without a server). */
export const noRequests: RequestGauge = { load: () => 0 };

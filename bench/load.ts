// One load run with autocannon against 127.0.0.1, reduced to the figures the report needs.
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  connections: number;
  /** Seconds. */
  duration: number;
  /** A fixed number of requests instead of a duration (a burst). */
  amount?: number;
  headers?: Record<string, string>;
  /** A fixed path, or one per request (rotating through activities, dates, bodies). */
  path?: string;
  next?: () => { path: string; body?: string };
  body?: string;
}

export interface LoadResult {
  /** Requests per second: the mean over the run's seconds, or for a burst (amount) its requests over its time. */
  rps: number;
  total: number;
  p50: number;
  p99: number;
  mean: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  non2xx: number;
  errors: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headers = { ...(spec.body !== undefined || spec.next ? { 'content-type': 'application/json' } : {}), ...spec.headers };
  const options: autocannon.Options = {
    url: spec.url + (spec.path ?? ''),
    method: spec.method ?? 'GET',
    connections: spec.connections,
    duration: spec.duration,
    ...(spec.amount !== undefined && { amount: spec.amount }),
    headers,
    ...(spec.body !== undefined && { body: spec.body }),
  };
  if (spec.next) {
    const next = spec.next;
    options.requests = [
      {
        setupRequest: (request) => {
          const { path, body } = next();
          return { ...request, path, ...(body !== undefined && { body }) };
        },
      },
    ];
  }
  // autocannon ends a run on its next one-second sample, so its duration is a burst's time rounded up to
  // a whole second: a 3.1 s burst read as 4 s. A burst's time is until its last response, timed here.
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    if (spec.amount !== undefined) instance.on('response', () => (lastResponse = performance.now()));
  });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  return {
    rps: spec.amount !== undefined ? result.requests.total / ((lastResponse - started) / 1000) : result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    statuses,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A warm-up run whose figures are thrown away (JIT, caches, connection pools). */
export async function warmUp(spec: LoadSpec, seconds: number): Promise<void> {
  await runLoad({ ...spec, duration: seconds });
}

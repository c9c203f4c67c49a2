// What the server process adds for its operators when asked to (docs/observability.md): the metrics when
// METRICS_PORT is set, the traces when OTEL_EXPORTER_OTLP_ENDPOINT is. Neither costs anything when unset:
// no observer on the database, no hook on the requests, and the OpenTelemetry packages never loaded.
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db, QueryObserver } from '../db/connection.js';
import type { Metrics } from './metrics.js';
import type { Tracing } from './tracing.js';

export interface Telemetry {
  /** What sees every database statement, if anything does. */
  readonly queries: QueryObserver | undefined;
  /** Registers the request hooks; before the routes. */
  instrument(app: FastifyInstance): Promise<void>;
  /** Listens on METRICS_PORT, reading the shared state from `db`. */
  listen(db: Db): Promise<void>;
  /** Stops the metrics port and sends the traces still queued. */
  stop(): Promise<void>;
}

export async function startTelemetry(config: Config): Promise<Telemetry> {
  const settings = config.observability;
  const metrics: Metrics | undefined = settings.metricsPort === undefined ? undefined : (await import('./metrics.js')).createMetrics();
  const tracing: Tracing | undefined = settings.otlpEndpoint === undefined ? undefined : (await import('./tracing.js')).startTracing(settings);
  const traced = tracing?.queries(config.database.dialect);
  let server: Server | undefined;
  return {
    queries: both(metrics?.queries, traced),
    async instrument(app) {
      if (tracing) await tracing.instrument(app);
      metrics?.instrument(app);
    },
    async listen(db) {
      if (!metrics || settings.metricsPort === undefined) return;
      metrics.watch(db);
      const { listenForScrapes } = await import('./metrics-server.js');
      server = await listenForScrapes(metrics.registry, settings.metricsPort, settings.metricsHost);
    },
    async stop() {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      metrics?.close();
      await tracing?.shutdown();
    },
  };
}

function both(a: QueryObserver | undefined, b: QueryObserver | undefined): QueryObserver | undefined {
  if (!a || !b) return a ?? b;
  return {
    start(operation, query) {
      const endA = a.start(operation, query);
      const endB = b.start(operation, query);
      return (error) => {
        endA(error);
        endB(error);
      };
    },
  };
}

// OpenTelemetry traces (docs/observability.md), loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (telemetry.ts imports this file dynamically): a span for each request (@fastify/otel), each database
// statement (db/observed.ts) and each outbound call (lib/tracing.ts: Stripe, GetYourGuide, webhook
// endpoints, SMTP), exported over OTLP/HTTP in batches; W3C trace context is read from requests and sent
// with webhook deliveries and GetYourGuide pushes. Attributes name things by their IDs (the operator, the
// booking reference, the route pattern); a URL's personal or secret parts are redacted as in the log,
// and a statement's text is never recorded (values may be written into it), only its operation.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ObservabilityConfig } from '../config.js';
import type { Dialect, QueryObserver } from '../db/connection.js';
import { redactUrl } from '../http/log-redaction.js';
import { installTracer, type SpanAttributes } from '../lib/tracing.js';

/** How often finished spans are sent (and at most how many are kept waiting if the collector is slow). */
const EXPORT_EVERY_MS = 2_000;
const MAX_QUEUED_SPANS = 4_096;

export interface Tracing {
  readonly queries: (dialect: Dialect) => QueryObserver;
  instrument(app: FastifyInstance): Promise<void>;
  /** Sends the spans still queued; the process is about to exit. */
  shutdown(): Promise<void>;
}

export function startTracing(config: ObservabilityConfig): Tracing {
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    // A caller that traces decides for its requests; our own requests and jobs are sampled at the ratio.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.traceSampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint}/v1/traces` }),
        scheduledDelayMillis: EXPORT_EVERY_MS,
        maxQueueSize: MAX_QUEUED_SPANS,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('slotbook');

  installTracer({
    async outbound(name, attributes, call) {
      return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const headers: Record<string, string> = {};
        propagation.inject(context.active(), headers);
        try {
          return await call({ headers, annotate: (more) => span.setAttributes(more) });
        } catch (error) {
          failed(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    annotate(attributes) {
      trace.getActiveSpan()?.setAttributes(attributes);
    },
  });

  const otel = new FastifyOtelInstrumentation({
    // The request's span alone (a span per hook and handler would cost more than it tells), named by the
    // route's pattern, its URL redacted as in the log.
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook: (span, request) => {
      if (!span.isRecording()) return; // not sampled: nothing to name
      const route = request.routeOptions.url;
      span.updateName(route === undefined ? `${request.method} (unmatched)` : `${request.method} ${route}`);
      span.setAttribute('url.path', redactUrl(request.url, route));
    },
  });
  otel.setTracerProvider(provider);

  return {
    queries: (dialect) => ({
      start(operation) {
        // Only inside a recorded span (a sampled request, an outbound call): the workers' polling
        // statements would otherwise each start a trace of their own, and an unsampled request's need none.
        if (!trace.getActiveSpan()?.isRecording()) return untraced;
        const span = tracer.startSpan(operation, {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': dialect === 'postgres' ? 'postgresql' : 'sqlite', 'db.operation.name': operation },
        });
        return (error) => {
          if (error !== undefined) failed(span, error);
          span.end();
        };
      },
    }),
    async instrument(app) {
      await app.register(otel.plugin());
      // Who and what the request is about, once the caller is known: by ID only.
      app.addHook('preHandler', (request, _reply, done) => {
        const span = request.opentelemetry().span;
        if (span?.isRecording()) span.setAttributes(requestAttributes(request));
        done();
      });
    },
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
    },
  };
}

const untraced = () => undefined;

function requestAttributes(request: FastifyRequest): SpanAttributes {
  const attributes: SpanAttributes = {};
  const caller = (request as FastifyRequest & { caller?: { operatorId?: number } | null }).caller;
  if (caller?.operatorId !== undefined) attributes['slotbook.operator_id'] = caller.operatorId;
  const params = request.params as Record<string, unknown> | undefined;
  const reference = params?.BookingReference ?? params?.reference;
  if (typeof reference === 'string') attributes['slotbook.booking_reference'] = reference;
  if (typeof params?.OperatorID === 'string') attributes['slotbook.operator_id'] ??= Number(params.OperatorID);
  return attributes;
}

function failed(span: Span, error: unknown): void {
  // The type and the status only: a message may quote what was sent (an address the server refused).
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
  span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
}

// Spans of what slotbook calls out to (Stripe, GetYourGuide, webhook endpoints, the SMTP server) and the
// attributes of the span under way (a request's booking reference and operator), through whatever tracer
// the composition installed: OpenTelemetry's when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (observability/tracing.ts), none otherwise, and then each call here is one check of an unset variable
// and no tracing code is loaded at all. Attributes name things by their IDs: never a guest's details.
export type SpanAttributes = Record<string, string | number | boolean>;

export interface OutboundCall {
  /** W3C trace context (traceparent) to send with the request, so the receiver's trace joins ours. */
  readonly headers: Readonly<Record<string, string>>;
  /** Adds attributes to the call's span (its HTTP status, say). */
  annotate(attributes: SpanAttributes): void;
}

export interface Tracer {
  outbound<T>(name: string, attributes: SpanAttributes, call: (span: OutboundCall) => Promise<T>): Promise<T>;
  annotate(attributes: SpanAttributes): void;
}

let tracer: Tracer | undefined;

export function installTracer(installed: Tracer | undefined): void {
  tracer = installed;
}

export function tracing(): boolean {
  return tracer !== undefined;
}

const UNTRACED: OutboundCall = Object.freeze({ headers: Object.freeze({}), annotate: () => undefined });

/** Runs an outbound call in a client span of its own (a child of the request's or the job's span). */
export function traceOutbound<T>(name: string, attributes: SpanAttributes, call: (span: OutboundCall) => Promise<T>): Promise<T> {
  return tracer ? tracer.outbound(name, attributes, call) : call(UNTRACED);
}

/** Adds attributes to the span under way (the request's): `slotbook.booking_reference`, `slotbook.operator_id`. */
export function annotateSpan(attributes: SpanAttributes): void {
  tracer?.annotate(attributes);
}

// The observability settings are checked at start like every other (config.ts): metrics never on the
// public port, a trace sample ratio from 0 to 1, a log format by name; unset, metrics and traces are off.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('observability settings', () => {
  it('are off by default, JSON logs when stdout is not a terminal, and an event-loop limit of a second', () => {
    const settings = loadConfig({}).observability;
    expect(settings.metricsPort).toBeUndefined();
    expect(settings.otlpEndpoint).toBeUndefined();
    expect(settings.maxEventLoopDelayMs).toBe(1000);
    expect(settings.maxHeapUsedBytes).toBeGreaterThan(0);
    if (!process.stdout.isTTY) expect(settings.logFormat).toBe('json');
  });

  it('take a metrics port, a collector, a sample ratio and a log format', () => {
    const settings = loadConfig({
      METRICS_PORT: '9464',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      LOG_FORMAT: 'pretty',
      OVERLOAD_HEAP_USED_MB: '0',
    }).observability;
    expect(settings).toMatchObject({ metricsPort: 9464, otlpEndpoint: 'http://collector:4318', traceSampleRatio: 0.25, logFormat: 'pretty' });
    expect(settings.maxHeapUsedBytes).toBe(0);
  });

  it('refuse metrics on the public port and malformed values, naming the setting', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be pretty or json/);
  });
});

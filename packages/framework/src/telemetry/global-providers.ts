import type * as OtelApi from '@opentelemetry/api';
import type { MeterLike, MeterProviderLike, TracerProviderLike } from './otel-types.js';

/** The application's global OpenTelemetry providers, and how to tell whether they record. */
export interface GlobalProviders {
  readonly meterProvider: MeterProviderLike;
  readonly tracerProvider: TracerProviderLike;
  /** False for OpenTelemetry's no-op meter: no SDK was registered when it was asked for. */
  readonly meterRecords: (meter: MeterLike) => boolean;
  /**
   * Whether spans of the scope go anywhere now. The global tracer provider is a proxy an SDK may
   * register behind at any time, so this is asked per span.
   */
  readonly tracerRecords: (name: string, version: string) => boolean;
}

/**
 * Loads `@opentelemetry/api`, only now and only when the application installed it (it is an
 * optional peer), and reads the global providers from it. Undefined without the package: then
 * nothing is recorded.
 */
export async function globalProviders(): Promise<GlobalProviders | undefined> {
  let api: typeof OtelApi;
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
  const noopMeter = api.createNoopMeter();
  const tracerProvider = api.trace.getTracerProvider();
  const proxy = tracerProvider instanceof api.ProxyTracerProvider ? tracerProvider : undefined;
  return {
    meterProvider: api.metrics.getMeterProvider(),
    tracerProvider,
    meterRecords: (meter) => meter !== noopMeter,
    tracerRecords: (name, version) =>
      proxy === undefined || proxy.getDelegateTracer(name, version) !== undefined,
  };
}

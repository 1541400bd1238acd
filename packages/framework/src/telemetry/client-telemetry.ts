// The OpenTelemetry instruments of one client and the recipes built on it. Everything goes
// through `@opentelemetry/api`, which does nothing until the application installs an SDK: then
// `metricsEnabled` is false and the hot path (every request) skips even reading the clock.
import {
  ProxyTracerProvider,
  SpanStatusCode,
  createNoopMeter,
  metrics,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type ObservableResult,
  type Span,
  type Tracer,
  type TracerProvider,
  type UpDownCounter,
} from '@opentelemetry/api';
import { GaugeSources } from './gauge-sources.js';

/** The instrumentation scope name every instrument and span of zkrecipes is created under. */
export const INSTRUMENTATION_SCOPE = '@zkrecipes/framework';
/** The version reported with the instrumentation scope. */
export const INSTRUMENTATION_VERSION = '0.1.0';

/** Histogram buckets for durations in seconds: 0.1 ms to 5 min. */
const SECONDS_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  30, 60, 120, 300,
];

/** What `createFramework` passes in (its `meterProvider`, `tracerProvider`, `telemetryPaths`). */
export interface ClientTelemetryOptions {
  /** Default: the global one. */
  readonly meterProvider?: MeterProvider | undefined;
  /** Default: the global one. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Add `zkrecipes.path` to recipe attributes. Default false. */
  readonly recordPaths?: boolean | undefined;
}

/** Describes an instrument: what it measures and in which unit (UCUM, e.g. `s`, `By`, `{item}`). */
export interface InstrumentDescription {
  /** What it measures, in a sentence. */
  readonly description: string;
  /** Its unit, UCUM: `s`, `By`, `{item}`. */
  readonly unit: string;
}

/**
 * One client's meter and tracer, its instruments (created once, by name) and the attribute
 * rules: a recipe's path is an attribute only when the application opted in
 * (`telemetryPaths: true`), so by default every attribute has a small fixed set of values.
 */
export class ClientTelemetry {
  /** The meter every instrument of the client and its recipes belongs to. */
  readonly meter: Meter;
  /** The tracer of every span of the client and its recipes. */
  readonly tracer: Tracer;
  /** False when no SDK is installed (and no provider given): recording costs nothing then. */
  readonly metricsEnabled: boolean;
  /** Whether recipes add `zkrecipes.path` to their attributes. */
  readonly recordPaths: boolean;
  /** The global provider when no provider was given: an SDK may register behind it later. */
  readonly #globalTracerProvider: ProxyTracerProvider | undefined;
  readonly #instruments = new Map<string, unknown>();
  readonly #gauges = new Map<string, GaugeSources>();

  /** Made once per client by createFramework. */
  constructor(options: ClientTelemetryOptions = {}) {
    const meterProvider = options.meterProvider ?? metrics.getMeterProvider();
    const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
    this.meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION);
    this.tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION);
    this.metricsEnabled = this.meter !== createNoopMeter();
    this.recordPaths = options.recordPaths ?? false;
    this.#globalTracerProvider =
      tracerProvider instanceof ProxyTracerProvider ? tracerProvider : undefined;
  }

  /**
   * False while spans go nowhere: the global tracer provider has no SDK behind it (asked on
   * each call, since an SDK may register at any time). A recipe then skips building a span's
   * attributes. A provider passed in is taken to record.
   */
  get tracingEnabled(): boolean {
    const global = this.#globalTracerProvider;
    return (
      global === undefined ||
      global.getDelegateTracer(INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION) !== undefined
    );
  }

  /** Whether anything records at all (metrics or spans): else a recipe can skip its telemetry. */
  get recording(): boolean {
    return this.metricsEnabled || this.tracingEnabled;
  }

  /**
   * The attributes of a recipe instance: `zkrecipes.recipe` (its class name) and, when paths
   * are recorded, `zkrecipes.path`. Build it once per instance and reuse it.
   */
  recipeAttributes(recipe: string, path: string, extra: Attributes = {}): Attributes {
    return this.recordPaths
      ? { 'zkrecipes.recipe': recipe, 'zkrecipes.path': path, ...extra }
      : { 'zkrecipes.recipe': recipe, ...extra };
  }

  /** A monotonic counter, created on first use. */
  counter(name: string, description: InstrumentDescription): Counter {
    return this.#once(name, () => this.meter.createCounter(name, description));
  }

  /** A counter that goes up and down (things held, leading, in flight). */
  upDownCounter(name: string, description: InstrumentDescription): UpDownCounter {
    return this.#once(name, () => this.meter.createUpDownCounter(name, description));
  }

  /** A histogram of durations in seconds (`unit` should be `s`), with buckets from 0.1 ms to 5 min. */
  durationHistogram(name: string, description: InstrumentDescription): Histogram {
    return this.#once(name, () =>
      this.meter.createHistogram(name, {
        ...description,
        advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
      }),
    );
  }

  /**
   * Adds a source to an observable gauge: `read()` is called at each collection; sources with
   * equal attributes are summed. Returns the function that removes the source (call it on close).
   */
  observe(
    name: string,
    description: InstrumentDescription,
    attributes: Attributes,
    read: () => number | undefined,
  ): () => void {
    let sources = this.#gauges.get(name);
    if (sources === undefined) {
      // The callback is registered while the gauge has sources and removed with the last one,
      // so a closed client leaves nothing behind in the application's meter.
      const created = new GaugeSources();
      const gauge = this.meter.createObservableGauge(name, description);
      const callback = (result: ObservableResult): void => created.report(result);
      gauge.addCallback(callback);
      created.onEmpty = () => {
        gauge.removeCallback(callback);
        this.#gauges.delete(name);
      };
      this.#gauges.set(name, created);
      sources = created;
    }
    return sources.add(attributes, read);
  }

  /** Starts a span (a no-op one without an SDK). */
  startSpan(name: string, attributes: Attributes): Span {
    return this.tracer.startSpan(name, { attributes });
  }

  /** Ends a span: OK, or ERROR with the exception recorded when `error` is given. */
  endSpan(span: Span, error?: unknown): void {
    if (error === undefined) {
      span.setStatus({ code: SpanStatusCode.OK });
    } else {
      if (error instanceof Error) span.recordException(error);
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message:
          error instanceof Error ? error.message : typeof error === 'string' ? error : 'failed',
      });
    }
    span.end();
  }

  #once<T>(name: string, create: () => T): T {
    let instrument = this.#instruments.get(name) as T | undefined;
    if (instrument === undefined) {
      instrument = create();
      this.#instruments.set(name, instrument);
    }
    return instrument;
  }
}

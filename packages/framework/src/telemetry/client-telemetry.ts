// The OpenTelemetry instruments of one client under one instrumentation scope: the framework's
// own, or a recipe package's. Until the client's providers are known (see ClientTelemetries)
// and whenever nothing records, every instrument is a no-op and the hot paths (every request,
// every acquire) skip even reading the clock.
import { GaugeSources } from './gauge-sources.js';
import { errorTypeOf } from './error-type.js';
import {
  SPAN_KIND,
  SPAN_STATUS_ERROR,
  type Attributes,
  type CounterLike,
  type HistogramLike,
  type MeterLike,
  type ObservableGaugeLike,
  type ObservableResultLike,
  type SpanLike,
  type TracerLike,
} from './otel-types.js';

/** The library an instrument or span belongs to: its package name and version. */
export interface InstrumentationScope {
  /** The reporting package's name, e.g. `@zkrecipes/locks`. */
  readonly name: string;
  /** That package's version. */
  readonly version: string;
}

/** Describes an instrument: what it measures and in which unit (UCUM, e.g. `s`, `By`, `{item}`). */
export interface InstrumentDescription {
  /** What it measures, in a sentence. */
  readonly description: string;
  /** Its unit, UCUM: `s`, `By`, `{item}`. */
  readonly unit: string;
}

/** @internal Where a scope's meter and tracer come from, once the client knows. */
export interface ScopeBinding {
  /** Undefined: no metrics. */
  readonly meter: MeterLike | undefined;
  /** Undefined: no spans. */
  readonly tracer: TracerLike | undefined;
  /** False when the meter records nothing (OpenTelemetry's no-op). */
  readonly meterRecords: boolean;
  /** Whether spans go anywhere now: asked per span, an SDK may register later. */
  readonly tracerRecords: () => boolean;
}

/** Histogram buckets for durations in seconds: 0.1 ms to 5 min. */
const SECONDS_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  30, 60, 120, 300,
];

const NOOP_INSTRUMENT: CounterLike & HistogramLike = { add: () => {}, record: () => {} };

/** The span of a scope that records no spans: every call does nothing. */
const NOOP_SPAN: SpanLike = {
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  recordException: () => {},
  end: () => {},
};

/** One observable gauge: its sources, and the instrument once there is a meter. */
interface Gauge {
  readonly description: InstrumentDescription;
  readonly sources: GaugeSources;
  registered?: { gauge: ObservableGaugeLike; callback: (result: ObservableResultLike) => void };
}

/**
 * One client's meter, tracer and instruments under one instrumentation scope (created once, by
 * name), and the attribute rules: a recipe's path is an attribute only when the application
 * opted in (`telemetryPaths: true`), so by default every attribute has a small fixed set of
 * values.
 */
export class ClientTelemetry {
  /** The package the instruments and spans are reported under. */
  readonly scope: InstrumentationScope;
  /** Whether recipes add `zkrecipes.path` to their attributes. */
  readonly recordPaths: boolean;
  #meter: MeterLike | undefined;
  #tracer: TracerLike | undefined;
  #metricsEnabled = false;
  #tracerRecords: () => boolean = () => false;
  readonly #instruments = new Map<string, unknown>();
  readonly #gauges = new Map<string, Gauge>();

  /** @internal Made by the client, one per scope (see `telemetryOf`). */
  constructor(scope: InstrumentationScope, recordPaths: boolean) {
    this.scope = scope;
    this.recordPaths = recordPaths;
  }

  /** @internal The client's providers are known: instruments record from now on. */
  bind(binding: ScopeBinding): void {
    this.#meter = binding.meter;
    this.#tracer = binding.tracer;
    this.#metricsEnabled = binding.meter !== undefined && binding.meterRecords;
    this.#tracerRecords = binding.tracer === undefined ? () => false : binding.tracerRecords;
    // Gauges added before: their sources were kept, the instruments are made now.
    for (const [name, gauge] of this.#gauges) this.#register(name, gauge);
  }

  /** False when no SDK is installed (and no provider given): recording costs nothing then. */
  get metricsEnabled(): boolean {
    return this.#metricsEnabled;
  }

  /**
   * False while spans go nowhere: no tracer provider, or the global one with no SDK behind it
   * (asked on each call, since an SDK may register at any time). A recipe then skips building
   * a span's attributes. A provider passed in is taken to record.
   */
  get tracingEnabled(): boolean {
    return this.#tracerRecords();
  }

  /** Whether anything records at all (metrics or spans): else a recipe can skip its telemetry. */
  get recording(): boolean {
    return this.#metricsEnabled || this.#tracerRecords();
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
  counter(name: string, description: InstrumentDescription): CounterLike {
    return this.#once(name, (meter) => meter.createCounter(name, description));
  }

  /** A counter that goes up and down (things held, leading, in flight). */
  upDownCounter(name: string, description: InstrumentDescription): CounterLike {
    return this.#once(name, (meter) => meter.createUpDownCounter(name, description));
  }

  /**
   * A histogram of durations in seconds, with buckets from 0.1 ms to 5 min. Name it
   * `<what>.duration` and give it the unit `s`, as every duration of zkrecipes is.
   */
  durationHistogram(name: string, description: InstrumentDescription): HistogramLike {
    return this.#once(name, (meter) =>
      meter.createHistogram(name, {
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
    let gauge = this.#gauges.get(name);
    if (gauge === undefined) {
      const created: Gauge = { description, sources: new GaugeSources() };
      // The callback is registered while the gauge has sources and removed with the last one,
      // so a closed client leaves nothing behind in the application's meter.
      created.sources.onEmpty = () => {
        created.registered?.gauge.removeCallback(created.registered.callback);
        this.#gauges.delete(name);
      };
      this.#gauges.set(name, created);
      this.#register(name, created);
      gauge = created;
    }
    return gauge.sources.add(attributes, read);
  }

  /** Starts a span: an INTERNAL one unless `kind` says otherwise; a no-op one while none record. */
  startSpan(name: string, attributes: Attributes, kind: number = SPAN_KIND.INTERNAL): SpanLike {
    const tracer = this.#tracer;
    if (tracer === undefined || !this.#tracerRecords()) return NOOP_SPAN;
    return tracer.startSpan(name, { kind, attributes });
  }

  /**
   * Ends a span. A failure (`error` given) sets `error.type` and the status ERROR, with the
   * exception recorded; success leaves the status unset, as OpenTelemetry asks of libraries.
   */
  endSpan(span: SpanLike, error?: unknown): void {
    if (error !== undefined) {
      if (error instanceof Error) span.recordException(error);
      span.setAttribute('error.type', errorTypeOf(error));
      span.setStatus({
        code: SPAN_STATUS_ERROR,
        message:
          error instanceof Error ? error.message : typeof error === 'string' ? error : 'failed',
      });
    }
    span.end();
  }

  #register(name: string, gauge: Gauge): void {
    const meter = this.#meter;
    if (meter === undefined || !this.#metricsEnabled || gauge.registered !== undefined) return;
    const instrument = meter.createObservableGauge(name, gauge.description);
    const callback = (result: ObservableResultLike): void => gauge.sources.report(result);
    instrument.addCallback(callback);
    gauge.registered = { gauge: instrument, callback };
  }

  #once<T>(name: string, create: (meter: MeterLike) => T): T {
    const meter = this.#meter;
    // Not kept: once the providers are known, the real instrument is made.
    if (meter === undefined || !this.#metricsEnabled) return NOOP_INSTRUMENT as T;
    let instrument = this.#instruments.get(name) as T | undefined;
    if (instrument === undefined) {
      instrument = create(meter);
      this.#instruments.set(name, instrument);
    }
    return instrument;
  }
}

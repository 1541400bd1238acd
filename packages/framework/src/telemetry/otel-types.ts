// The part of OpenTelemetry's API the framework and the recipes call, declared here: neither our
// code nor our published types need `@opentelemetry/api` installed (it is an optional peer).
// OpenTelemetry's own providers, meters, tracers and spans satisfy these structurally, so an
// application passes its SDK's providers as they are.

/** An attribute's value, as OpenTelemetry takes it. */
export type AttributeValue =
  | string
  | number
  | boolean
  | (string | null | undefined)[]
  | (number | null | undefined)[]
  | (boolean | null | undefined)[];

/** Attributes of a data point or span. */
export interface Attributes {
  [key: string]: AttributeValue | undefined;
}

/** What an instrument is created with. */
export interface InstrumentOptions {
  /** What the instrument measures, in a sentence. */
  readonly description?: string;
  /** UCUM unit, e.g. `s`. */
  readonly unit?: string;
  /** Hints to the SDK: a histogram's bucket boundaries. */
  readonly advice?: {
    /** The histogram's bucket boundaries, in the instrument's unit. */
    readonly explicitBucketBoundaries?: number[];
  };
}

/** A monotonic counter (or an up-down counter: same shape). */
export interface CounterLike {
  /** Adds `value` (negative only on an up-down counter). */
  add(value: number, attributes?: Attributes): void;
}

/** A histogram. */
export interface HistogramLike {
  /** Records one value. */
  record(value: number, attributes?: Attributes): void;
}

/** What an observable gauge's callback reports to. */
export interface ObservableResultLike {
  /** Reports the gauge's value for these attributes. */
  observe(value: number, attributes?: Attributes): void;
}

/** An observable gauge. */
export interface ObservableGaugeLike {
  /** Called at each collection. */
  addCallback(callback: (result: ObservableResultLike) => void): void;
  /** Stops calling `callback`. */
  removeCallback(callback: (result: ObservableResultLike) => void): void;
}

/** OpenTelemetry's `Meter`, the methods we call. */
export interface MeterLike {
  /** A monotonic counter. */
  createCounter(name: string, options?: InstrumentOptions): CounterLike;
  /** A counter that also goes down. */
  createUpDownCounter(name: string, options?: InstrumentOptions): CounterLike;
  /** A histogram. */
  createHistogram(name: string, options?: InstrumentOptions): HistogramLike;
  /** A gauge read at each collection. */
  createObservableGauge(name: string, options?: InstrumentOptions): ObservableGaugeLike;
}

/** OpenTelemetry's `MeterProvider` (an SDK's, or `metrics.getMeterProvider()`). */
export interface MeterProviderLike {
  /** The meter of an instrumentation scope. */
  getMeter(name: string, version?: string): MeterLike;
}

/** A span's status: OpenTelemetry's `SpanStatusCode` values. */
export interface SpanStatusLike {
  /** `SpanStatusCode`: 0 unset, 1 OK, 2 ERROR. */
  readonly code: number;
  /** Why, for an ERROR. */
  readonly message?: string;
}

/** OpenTelemetry's `Span`, the methods we call. */
export interface SpanLike {
  /** Sets one attribute. */
  setAttribute(key: string, value: AttributeValue): this;
  /** Sets several attributes. */
  setAttributes(attributes: Attributes): this;
  /** Adds a timed event. */
  addEvent(name: string, attributes?: Attributes): this;
  /** Sets the span's status. */
  setStatus(status: SpanStatusLike): this;
  /** Records an exception as an event. */
  recordException(exception: Error): void;
  /** Ends the span now. */
  end(): void;
}

/** What a span is started with. */
export interface SpanOptionsLike {
  /** OpenTelemetry's `SpanKind` value. */
  readonly kind?: number;
  /** Attributes known at the start. */
  readonly attributes?: Attributes;
}

/** OpenTelemetry's `Tracer`, the method we call. */
export interface TracerLike {
  /** Starts a span (not made current). */
  startSpan(name: string, options?: SpanOptionsLike): SpanLike;
}

/** OpenTelemetry's `TracerProvider` (an SDK's, or `trace.getTracerProvider()`). */
export interface TracerProviderLike {
  /** The tracer of an instrumentation scope. */
  getTracer(name: string, version?: string): TracerLike;
}

/** OpenTelemetry's `SpanKind.INTERNAL` (a recipe's own span) and `SpanKind.CLIENT` (a request). */
export const SPAN_KIND = { INTERNAL: 0, CLIENT: 2 } as const;

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
export const SPAN_STATUS_ERROR = 2;

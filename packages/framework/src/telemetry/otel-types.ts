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
  readonly description?: string;
  readonly unit?: string;
  readonly advice?: { readonly explicitBucketBoundaries?: number[] };
}

/** A monotonic counter (or an up-down counter: same shape). */
export interface CounterLike {
  add(value: number, attributes?: Attributes): void;
}

/** A histogram. */
export interface HistogramLike {
  record(value: number, attributes?: Attributes): void;
}

/** What an observable gauge's callback reports to. */
export interface ObservableResultLike {
  observe(value: number, attributes?: Attributes): void;
}

/** An observable gauge. */
export interface ObservableGaugeLike {
  addCallback(callback: (result: ObservableResultLike) => void): void;
  removeCallback(callback: (result: ObservableResultLike) => void): void;
}

/** OpenTelemetry's `Meter`, the methods we call. */
export interface MeterLike {
  createCounter(name: string, options?: InstrumentOptions): CounterLike;
  createUpDownCounter(name: string, options?: InstrumentOptions): CounterLike;
  createHistogram(name: string, options?: InstrumentOptions): HistogramLike;
  createObservableGauge(name: string, options?: InstrumentOptions): ObservableGaugeLike;
}

/** OpenTelemetry's `MeterProvider` (an SDK's, or `metrics.getMeterProvider()`). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

/** A span's status: OpenTelemetry's `SpanStatusCode` values. */
export interface SpanStatusLike {
  readonly code: number;
  readonly message?: string;
}

/** OpenTelemetry's `Span`, the methods we call. */
export interface SpanLike {
  setAttribute(key: string, value: AttributeValue): this;
  setAttributes(attributes: Attributes): this;
  addEvent(name: string, attributes?: Attributes): this;
  setStatus(status: SpanStatusLike): this;
  recordException(exception: Error): void;
  end(): void;
}

/** What a span is started with. */
export interface SpanOptionsLike {
  /** OpenTelemetry's `SpanKind` value. */
  readonly kind?: number;
  readonly attributes?: Attributes;
}

/** OpenTelemetry's `Tracer`, the method we call. */
export interface TracerLike {
  startSpan(name: string, options?: SpanOptionsLike): SpanLike;
}

/** OpenTelemetry's `TracerProvider` (an SDK's, or `trace.getTracerProvider()`). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): TracerLike;
}

/** OpenTelemetry's `SpanKind.INTERNAL` (a recipe's own span) and `SpanKind.CLIENT` (a request). */
export const SPAN_KIND = { INTERNAL: 0, CLIENT: 2 } as const;

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
export const SPAN_STATUS_ERROR = 2;

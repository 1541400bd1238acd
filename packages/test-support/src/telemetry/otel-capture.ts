// An OpenTelemetry SDK that keeps everything in memory: a MeterProvider whose reader the test
// collects on demand, and a TracerProvider with an in-memory span exporter.
import {
  InMemorySpanExporter,
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import type { Attributes } from '@opentelemetry/api';

class OnDemandReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One data point, flattened: a sum's or gauge's value, or a histogram's count and sum. */
export interface Point {
  readonly attributes: Attributes;
  readonly value: number;
  readonly count: number;
  readonly min?: number | undefined;
  readonly max?: number | undefined;
}

export class OtelCapture {
  readonly #reader = new OnDemandReader();
  readonly #spans = new InMemorySpanExporter();
  readonly meterProvider = new MeterProvider({ readers: [this.#reader] });
  readonly tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(this.#spans)],
  });

  /** Every metric collected now, by name. */
  async metrics(): Promise<Map<string, MetricData>> {
    const { resourceMetrics } = await this.#reader.collect();
    const byName = new Map<string, MetricData>();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    }
    return byName;
  }

  /** The instrumentation scope (`name@version`) each metric collected now was reported under. */
  async scopes(): Promise<Map<string, string>> {
    const { resourceMetrics } = await this.#reader.collect();
    const byName = new Map<string, string>();
    for (const { scope, metrics } of resourceMetrics.scopeMetrics) {
      for (const metric of metrics) byName.set(metric.descriptor.name, scopeKey(scope));
    }
    return byName;
  }

  /** The points of `name` whose attributes include `match` (none when it is absent). */
  async points(name: string, match: Attributes = {}): Promise<Point[]> {
    const metric = (await this.metrics()).get(name);
    if (metric === undefined) return [];
    return pointsOf(metric).filter((point) =>
      Object.entries(match).every(([key, value]) => point.attributes[key] === value),
    );
  }

  /** The sum of the matching points' values (counters, gauges) or counts (histograms). */
  async total(name: string, match: Attributes = {}): Promise<number> {
    const metric = (await this.metrics()).get(name);
    const points = await this.points(name, match);
    const histogram = metric?.dataPointType === DataPointType.HISTOGRAM;
    return points.reduce((sum, point) => sum + (histogram ? point.count : point.value), 0);
  }

  spans(name?: string): ReadableSpan[] {
    return this.#spans
      .getFinishedSpans()
      .filter((span) => name === undefined || span.name === name);
  }

  async shutdown(): Promise<void> {
    await this.meterProvider.shutdown();
    await this.tracerProvider.shutdown();
  }
}

/** `name@version` of an instrumentation scope (of a metric, or a span's `instrumentationScope`). */
export function scopeKey(scope: {
  readonly name: string;
  readonly version?: string | undefined;
}): string {
  return `${scope.name}@${scope.version ?? ''}`;
}

function pointsOf(metric: MetricData): Point[] {
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    return metric.dataPoints.map((point) => ({
      attributes: point.attributes,
      value: point.value.sum ?? 0,
      count: point.value.count,
      min: point.value.min,
      max: point.value.max,
    }));
  }
  if (metric.dataPointType === DataPointType.EXPONENTIAL_HISTOGRAM) return [];
  return metric.dataPoints.map((point) => ({
    attributes: point.attributes,
    value: point.value,
    count: 1,
  }));
}

import { performance } from 'node:perf_hooks';
import type { ServerAddress } from '../paths/connect-string.js';
import type { ClientTelemetry } from './client-telemetry.js';
import { errorTypeOf } from './error-type.js';
import { SPAN_KIND, SPAN_STATUS_ERROR, type Attributes, type SpanLike } from './otel-types.js';

/**
 * The request-duration metric's name: OpenTelemetry's database-client convention, under which
 * a ZooKeeper request is one operation of the `zookeeper` system.
 */
export const REQUEST_DURATION = 'db.client.operation.duration';
/** `db.system.name` of every request. */
export const DB_SYSTEM = 'zookeeper';

/** One request on the wire being measured: call exactly one of its methods, once. */
export interface RequestTrace {
  /** The server answered. */
  succeeded(): void;
  /** It failed: timed and counted with its `error.type`. */
  failed(error: unknown): void;
  /** Given up on (its signal, the client's close): its span ends, no duration is recorded. */
  abandoned(error: unknown): void;
}

/**
 * Measures each request from sending to its answer: `db.client.operation.duration` and, when
 * spans record, one CLIENT span named after the operation. Attributes: `db.system.name`
 * (`zookeeper`), `db.operation.name`, `server.address` and `server.port` of the server it went
 * to, and `error.type` when it failed. Nothing is timed while neither records; the attribute
 * objects are made once per (server, operation, error type) and reused.
 */
export class RequestTelemetry {
  readonly #telemetry: ClientTelemetry;
  readonly #attributes = new Map<ServerAddress | undefined, Map<string, Attributes>>();

  constructor(telemetry: ClientTelemetry) {
    this.#telemetry = telemetry;
  }

  /** A request of `operation` goes to `server` now; undefined when nothing records. */
  started(operation: string, server: ServerAddress | undefined): RequestTrace | undefined {
    const telemetry = this.#telemetry;
    const metrics = telemetry.metricsEnabled;
    const tracing = telemetry.tracingEnabled;
    if (!metrics && !tracing) return undefined;
    const startMs = performance.now();
    const attributes = this.#attributesOf(server, operation, undefined);
    const span = tracing ? telemetry.startSpan(operation, attributes, SPAN_KIND.CLIENT) : undefined;
    const record = (errorType: string | undefined): void => {
      if (!metrics) return;
      telemetry
        .durationHistogram(REQUEST_DURATION, {
          description: 'Duration of ZooKeeper requests, from sending to the answer',
          unit: 's',
        })
        .record(
          (performance.now() - startMs) / 1000,
          errorType === undefined ? attributes : this.#attributesOf(server, operation, errorType),
        );
    };
    return {
      succeeded: () => {
        record(undefined);
        span?.end();
      },
      failed: (error) => {
        const errorType = errorTypeOf(error);
        record(errorType);
        if (span !== undefined) failSpan(span, errorType, error);
      },
      abandoned: (error) => {
        if (span !== undefined) failSpan(span, errorTypeOf(error), error);
      },
    };
  }

  #attributesOf(
    server: ServerAddress | undefined,
    operation: string,
    errorType: string | undefined,
  ): Attributes {
    let ofServer = this.#attributes.get(server);
    if (ofServer === undefined) {
      ofServer = new Map();
      this.#attributes.set(server, ofServer);
    }
    const key = errorType === undefined ? operation : `${operation} ${errorType}`;
    let attributes = ofServer.get(key);
    if (attributes === undefined) {
      attributes = {
        'db.system.name': DB_SYSTEM,
        'db.operation.name': operation,
        ...(server === undefined
          ? {}
          : { 'server.address': server.host, 'server.port': server.port }),
        ...(errorType === undefined ? {} : { 'error.type': errorType }),
      };
      ofServer.set(key, attributes);
    }
    return attributes;
  }
}

// A request's failure is its answer, not an exception of ours: no exception event, whose stack
// would be the cost of every NO_NODE.
function failSpan(span: SpanLike, errorType: string, error: unknown): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({
    code: SPAN_STATUS_ERROR,
    message: error instanceof Error ? error.message : errorType,
  });
  span.end();
}

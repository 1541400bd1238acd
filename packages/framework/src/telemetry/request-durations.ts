import { performance } from 'node:perf_hooks';
import type { Attributes, Histogram } from '@opentelemetry/api';
import { isZooKeeperError } from '../errors/predicates.js';
import type { ClientTelemetry } from './client-telemetry.js';

/** The request-duration metric's name (OpenTelemetry semantic-convention style). */
export const REQUEST_DURATION = 'zookeeper.client.request.duration';

/**
 * Records `zookeeper.client.request.duration`: the time from sending a request to its answer
 * (or failure), per operation and result code. Only created when an SDK is installed: without
 * one the connection holds no RequestDurations and times nothing. The attribute objects are
 * made once per (operation, result code) pair and reused, so a request allocates nothing.
 */
export class RequestDurations {
  readonly #histogram: Histogram;
  readonly #attributes = new Map<string, Map<string, Attributes>>();

  constructor(telemetry: ClientTelemetry) {
    this.#histogram = telemetry.durationHistogram(REQUEST_DURATION, {
      description: 'Duration of ZooKeeper requests, from sending to the answer',
      unit: 's',
    });
  }

  /** Records a request of `operation` started at `startMs` (`performance.now()`) that answered. */
  succeeded(operation: string, startMs: number): void {
    this.#histogram.record(
      (performance.now() - startMs) / 1000,
      this.#attributesOf(operation, 'OK'),
    );
  }

  /** Records a failed request: its result code is the error's ZooKeeper code name. */
  failed(operation: string, startMs: number, error: unknown): void {
    const code = isZooKeeperError(error) ? error.code : 'CLIENT_ERROR';
    this.#histogram.record(
      (performance.now() - startMs) / 1000,
      this.#attributesOf(operation, code),
    );
  }

  #attributesOf(operation: string, code: string): Attributes {
    let byCode = this.#attributes.get(operation);
    if (byCode === undefined) {
      byCode = new Map();
      this.#attributes.set(operation, byCode);
    }
    let attributes = byCode.get(code);
    if (attributes === undefined) {
      attributes = { 'zookeeper.operation': operation, 'zookeeper.result_code': code };
      byCode.set(code, attributes);
    }
    return attributes;
  }
}

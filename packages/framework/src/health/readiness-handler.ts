import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { validateTimeoutMs } from '../checks/validate-number.js';
import type { ClientHealth } from './client-health.js';

/** The part of `http.ServerResponse` the readiness handler writes to. */
export interface ReadinessResponse {
  /** Set to 200 (ready) or 503. */
  statusCode: number;
  /** Sets `content-type: application/json`. */
  setHeader(name: string, value: string): unknown;
  /** Sends the health snapshot as JSON. */
  end(body: string): unknown;
}

/** Options of {@link readinessHandler}. */
export interface ReadinessHandlerOptions {
  /**
   * Not ready when the server was last heard longer ago than this (a connection that is up
   * but silent). Default: no such limit (the client's own heartbeat declares a silent
   * connection SUSPENDED after two thirds of the session timeout).
   */
  readonly maxSinceLastHeardMs?: number;
}

/** Something with a `health()`: a FrameworkClient. */
export interface HasHealth {
  /** A snapshot of the client's health. */
  health(): ClientHealth;
}

/**
 * A `(req, res)` handler for an HTTP readiness probe (node:http, Express, Fastify's raw
 * response): 200 and the health snapshot as JSON when the client is ready, 503 otherwise.
 *
 * @example
 * ```ts
 * http.createServer(readinessHandler(client)).listen(8080);
 * ```
 */
export function readinessHandler(
  client: HasHealth,
  options: ReadinessHandlerOptions = {},
): (request: unknown, response: ReadinessResponse) => void {
  if (typeof client?.health !== 'function') {
    throw new InvalidArgumentError('readinessHandler takes a client (createFramework)');
  }
  const { maxSinceLastHeardMs } = options;
  if (maxSinceLastHeardMs !== undefined) {
    validateTimeoutMs('maxSinceLastHeardMs', maxSinceLastHeardMs);
  }
  return (_request, response) => {
    const health = client.health();
    const ready =
      health.ready &&
      (maxSinceLastHeardMs === undefined ||
        (health.sinceLastHeardMs !== undefined && health.sinceLastHeardMs <= maxSinceLastHeardMs));
    response.statusCode = ready ? 200 : 503;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ ...health, ready }));
  };
}

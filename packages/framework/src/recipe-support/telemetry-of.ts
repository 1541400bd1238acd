import { TELEMETRY, type FrameworkClient } from '../client/framework-client.js';
import type { ClientTelemetry } from '../telemetry/client-telemetry.js';

/**
 * The OpenTelemetry meter, tracer and shared instruments of `client` (and of its namespace
 * views): what a recipe records its metrics and spans with. With no SDK installed they are
 * OpenTelemetry's no-ops and `metricsEnabled` is false.
 */
export function telemetryOf(client: FrameworkClient): ClientTelemetry {
  return client[TELEMETRY]();
}

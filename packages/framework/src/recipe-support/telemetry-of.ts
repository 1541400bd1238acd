import { TELEMETRY, type FrameworkClient } from '../client/framework-client.js';
import type { ClientTelemetry, InstrumentationScope } from '../telemetry/client-telemetry.js';

/**
 * The OpenTelemetry meter, tracer and shared instruments of `client` (and of its namespace
 * views) under `scope`: what a recipe records its metrics and spans with. Pass the recipe
 * package's own name and version (`{ name: '@zkrecipes/locks', version: '0.1.0' }`), so that
 * its instruments and spans are reported under the library that makes them. With no SDK
 * installed they are no-ops and `metricsEnabled` is false.
 */
export function telemetryOf(client: FrameworkClient, scope: InstrumentationScope): ClientTelemetry {
  return client[TELEMETRY]().forScope(scope);
}

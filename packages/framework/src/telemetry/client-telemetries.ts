import {
  ClientTelemetry,
  type InstrumentationScope,
  type ScopeBinding,
} from './client-telemetry.js';
import { globalProviders, type GlobalProviders } from './global-providers.js';
import type { MeterProviderLike, TracerProviderLike } from './otel-types.js';

/** The framework's instrumentation scope name; each recipe package reports under its own. */
export const INSTRUMENTATION_SCOPE = '@zkrecipes/framework';
/** The version reported with the framework's instrumentation scope: the package's version. */
export const INSTRUMENTATION_VERSION = '0.1.0';

/** The framework's own scope: the client's connection and request metrics and spans. */
export const FRAMEWORK_SCOPE: InstrumentationScope = {
  name: INSTRUMENTATION_SCOPE,
  version: INSTRUMENTATION_VERSION,
};

/** What `createFramework` passes in (its `meterProvider`, `tracerProvider`, `telemetryPaths`). */
export interface ClientTelemetryOptions {
  /** Default: the global one, when `@opentelemetry/api` is installed. */
  readonly meterProvider?: MeterProviderLike | undefined;
  /** Default: the global one, when `@opentelemetry/api` is installed. */
  readonly tracerProvider?: TracerProviderLike | undefined;
  /** Add `zkrecipes.path` to recipe attributes. Default false. */
  readonly recordPaths?: boolean | undefined;
}

/**
 * One client's telemetry, one {@link ClientTelemetry} per instrumentation scope (the framework,
 * each recipe package). The providers are the ones given, else the application's global ones,
 * read from `@opentelemetry/api` when that is installed: it is loaded only then, and
 * asynchronously, so {@link ready} settles once they are known; `start()` waits for it, and
 * nothing records before.
 */
export class ClientTelemetries {
  readonly #recordPaths: boolean;
  readonly #scopes = new Map<string, ClientTelemetry>();
  #bindingOf: ((scope: InstrumentationScope) => ScopeBinding) | undefined;
  /** Settles once the providers are known; undefined when both were given (known at once). */
  readonly ready: Promise<void> | undefined;

  constructor(options: ClientTelemetryOptions = {}) {
    this.#recordPaths = options.recordPaths ?? false;
    const { meterProvider, tracerProvider } = options;
    if (meterProvider !== undefined && tracerProvider !== undefined) {
      this.#bindingOf = bindingOf(meterProvider, tracerProvider, undefined);
    } else {
      this.ready = globalProviders().then((globals) => {
        this.#bindingOf = bindingOf(meterProvider, tracerProvider, globals);
        for (const telemetry of this.#scopes.values()) {
          telemetry.bind(this.#bindingOf(telemetry.scope));
        }
      });
    }
  }

  /** The instruments of `scope` on this client, made once. */
  forScope(scope: InstrumentationScope): ClientTelemetry {
    const key = `${scope.name}@${scope.version}`;
    let telemetry = this.#scopes.get(key);
    if (telemetry === undefined) {
      telemetry = new ClientTelemetry(scope, this.#recordPaths);
      if (this.#bindingOf !== undefined) telemetry.bind(this.#bindingOf(scope));
      this.#scopes.set(key, telemetry);
    }
    return telemetry;
  }
}

/**
 * How a scope gets its meter and tracer: from the providers given (taken to record), else from
 * the global ones (which may be OpenTelemetry's no-ops), else none.
 */
function bindingOf(
  meterProvider: MeterProviderLike | undefined,
  tracerProvider: TracerProviderLike | undefined,
  globals: GlobalProviders | undefined,
): (scope: InstrumentationScope) => ScopeBinding {
  return ({ name, version }) => {
    const meter = (meterProvider ?? globals?.meterProvider)?.getMeter(name, version);
    const tracer = (tracerProvider ?? globals?.tracerProvider)?.getTracer(name, version);
    return {
      meter,
      tracer,
      meterRecords:
        meterProvider !== undefined || (meter !== undefined && globals!.meterRecords(meter)),
      tracerRecords:
        tracerProvider !== undefined || globals === undefined
          ? () => true
          : () => globals.tracerRecords(name, version),
    };
  };
}

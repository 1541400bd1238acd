import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { InvalidArgumentError, validatePath } from '@zkrecipes/framework';
import {
  booleanOption,
  checkOptionsObject,
  checkRecipeOptions,
  describeValue,
  type JsonValue,
} from '@zkrecipes/framework/recipe-support';
import { ServiceType } from './service-type.js';
import { UriSpec } from './uri-spec.js';

/** A payload: a JSON object (Curator's Map payload, or the fields of a Java payload class). */
export type ServicePayload = { readonly [key: string]: JsonValue };

/**
 * One registered instance of a service, with the fields of Curator's `ServiceInstance` under
 * the names its JSON uses. Absent values (Java's nulls) are undefined.
 */
export interface ServiceInstance<P extends ServicePayload = ServicePayload> {
  /** The service's name: the node under the base path that holds its instances. */
  readonly name: string;
  /** This instance's id: its node's name (for DYNAMIC_SEQUENTIAL, the prefix). */
  readonly id: string;
  /** Host name or IP address. */
  readonly address: string | undefined;
  /** Plain port. */
  readonly port: number | undefined;
  /** TLS port; its presence makes `{scheme}` `https`. */
  readonly sslPort: number | undefined;
  /** Application data, a JSON object (Curator writes it with its Java class in `@class`). */
  readonly payload: P | undefined;
  /** Epoch milliseconds of the registration. */
  readonly registrationTimeUTC: number;
  /** How long the registration lives. */
  readonly serviceType: ServiceType;
  /** The URI template of the instance. */
  readonly uriSpec: UriSpec | undefined;
  /**
   * Whether providers hand it out. Written only by a serializer in non-compatible mode, as in
   * Curator; read as true when absent.
   */
  readonly enabled: boolean;
}

/** Options of {@link createServiceInstance}: the fields, with defaults for most. */
export interface ServiceInstanceOptions<P extends ServicePayload = ServicePayload> {
  /** Required: the service's name (one node name: no "/", not "." or ".."). */
  readonly name: string;
  /** Default: a random UUID (as Curator's builder). One node name. */
  readonly id?: string | undefined;
  /**
   * Default: the first non-internal IPv4 address of this host (as Curator's builder); null
   * for none (Curator's `address(null)`).
   */
  readonly address?: string | null | undefined;
  /** 1-65535. Default: none. */
  readonly port?: number | undefined;
  /** 1-65535. Default: none. */
  readonly sslPort?: number | undefined;
  /** A JSON object. Default: none. */
  readonly payload?: P | undefined;
  /** Default: now. */
  readonly registrationTimeUTC?: number | undefined;
  /** Default: DYNAMIC. */
  readonly serviceType?: ServiceType | undefined;
  /** A template such as `{scheme}://{address}:{port}`, or a UriSpec. Default: none. */
  readonly uriSpec?: string | UriSpec | undefined;
  /** Default: true. */
  readonly enabled?: boolean | undefined;
}

/** An instance's fields in the order Curator's JSON has them; `enabled` comes after them. */
export const INSTANCE_JSON_FIELDS = [
  'name',
  'id',
  'address',
  'port',
  'sslPort',
  'payload',
  'registrationTimeUTC',
  'serviceType',
  'uriSpec',
] as const;

/** The keys of {@link ServiceInstanceOptions}: an instance's own fields. */
const INSTANCE_OPTIONS = [...INSTANCE_JSON_FIELDS, 'enabled'];

/**
 * A checked, frozen ServiceInstance (Curator's `ServiceInstance.builder()`). Every field is
 * checked here, so a bad one fails with InvalidArgumentError
 * before anything is sent; so does a key that is not a field (`prot`). The payload's members
 * are checked by the serializer when the instance is registered.
 */
export function createServiceInstance<P extends ServicePayload = ServicePayload>(
  options: ServiceInstanceOptions<P>,
): ServiceInstance<P> {
  if (options === undefined)
    throw new InvalidArgumentError('service instance options are required');
  checkRecipeOptions('createServiceInstance', options, INSTANCE_OPTIONS);
  const uriSpec: unknown = options.uriSpec;
  if (uriSpec !== undefined && typeof uriSpec !== 'string' && !(uriSpec instanceof UriSpec)) {
    throw new InvalidArgumentError(
      `uriSpec must be a template string or a UriSpec; got ${describeValue(uriSpec)}`,
    );
  }
  const serviceType = options.serviceType ?? ServiceType.DYNAMIC;
  const instance = {
    name: options.name,
    id: options.id ?? randomUUID(),
    address: options.address === undefined ? defaultAddress() : (options.address ?? undefined),
    port: options.port,
    sslPort: options.sslPort,
    payload: options.payload,
    registrationTimeUTC: options.registrationTimeUTC ?? Date.now(),
    serviceType,
    uriSpec: typeof uriSpec === 'string' ? new UriSpec(uriSpec) : uriSpec,
    enabled: booleanOption('enabled', options.enabled, true),
  };
  checkServiceInstance(instance, '');
  return Object.freeze(instance);
}

/**
 * The field checks of {@link createServiceInstance}, for any instance given to be written
 * (registered, updated, serialized), made by it or not: InvalidArgumentError naming the field
 * (after `prefix`, e.g. `instance `) for a missing or wrong one. The payload's members are the
 * serializer's to check.
 */
export function checkServiceInstance(
  instance: unknown,
  prefix: string,
): asserts instance is ServiceInstance {
  if (typeof instance !== 'object' || instance === null) {
    throw new InvalidArgumentError(
      `a service instance is required (see createServiceInstance); got ${describeValue(instance)}`,
    );
  }
  const fields = instance as { readonly [K in keyof ServiceInstance]: unknown };
  const { serviceType } = fields;
  if (!Object.values<unknown>(ServiceType).includes(serviceType)) {
    throw new InvalidArgumentError(`unknown ${prefix}serviceType ${describeValue(serviceType)}`);
  }
  checkNodeName(`${prefix}name`, fields.name, false);
  checkNodeName(`${prefix}id`, fields.id, serviceType === ServiceType.DYNAMIC_SEQUENTIAL);
  if (fields.address !== undefined && typeof fields.address !== 'string') {
    throw new InvalidArgumentError(
      `${prefix}address must be a string; got ${describeValue(fields.address)}`,
    );
  }
  checkPort(`${prefix}port`, fields.port);
  checkPort(`${prefix}sslPort`, fields.sslPort);
  const { registrationTimeUTC, payload, uriSpec, enabled } = fields;
  if (
    typeof registrationTimeUTC !== 'number' ||
    !Number.isSafeInteger(registrationTimeUTC) ||
    registrationTimeUTC < 0
  ) {
    throw new InvalidArgumentError(
      `${prefix}registrationTimeUTC must be a whole number of ms >= 0; got ${describeValue(registrationTimeUTC)}`,
    );
  }
  if (
    payload !== undefined &&
    (typeof payload !== 'object' || payload === null || Array.isArray(payload))
  ) {
    throw new InvalidArgumentError(
      `${prefix}payload must be a JSON object; got ${describeValue(payload)}`,
    );
  }
  if (uriSpec !== undefined && !(uriSpec instanceof UriSpec)) {
    throw new InvalidArgumentError(
      `${prefix}uriSpec must be a UriSpec (createServiceInstance parses a template string); got ${describeValue(uriSpec)}`,
    );
  }
  if (typeof enabled !== 'boolean') {
    throw new InvalidArgumentError(
      `${prefix}enabled must be a boolean; got ${describeValue(enabled)}`,
    );
  }
}

/**
 * The check of the calls that know an instance by its service and id (`noteError`,
 * `unregisterService`): an object with a string `name` and `id`, else InvalidArgumentError
 * naming `operation`. Lighter than {@link checkServiceInstance}, which is for writing: any
 * instance a cache read (a Java peer's port 0, say) passes.
 */
export function checkInstanceKey(
  operation: string,
  instance: unknown,
): asserts instance is Pick<ServiceInstance, 'name' | 'id'> {
  const candidate = instance as { name?: unknown; id?: unknown } | null | undefined;
  if (typeof candidate?.name !== 'string' || typeof candidate.id !== 'string') {
    throw new InvalidArgumentError(
      `${operation}() needs an instance (a string name and id); got ${describeValue(instance)}`,
    );
  }
}

/**
 * The instance's URI from its uriSpec (Curator's `buildUriSpec()`); '' without one. An
 * instance or variables that are not objects: InvalidArgumentError.
 */
export function buildUri(
  instance: ServiceInstance,
  variables: Readonly<Record<string, unknown>> = {},
): string {
  if (typeof instance !== 'object' || instance === null) {
    throw new InvalidArgumentError(`buildUri() needs an instance; got ${describeValue(instance)}`);
  }
  checkOptionsObject(variables, 'variables');
  const uriSpec: unknown = instance.uriSpec;
  if (uriSpec === undefined || uriSpec === null) return '';
  if (!(uriSpec instanceof UriSpec)) {
    throw new InvalidArgumentError(`uriSpec must be a UriSpec; got ${describeValue(uriSpec)}`);
  }
  return uriSpec.build(instance, variables);
}

/** A node name ZooKeeper accepts under the service path; `sequential` allows an empty prefix. */
export function checkNodeName(what: string, value: unknown, sequential: boolean): string {
  if (typeof value !== 'string' || (value.length === 0 && !sequential)) {
    throw new InvalidArgumentError(
      `${what} must be a non-empty string; got ${describeValue(value)}`,
    );
  }
  if (value.includes('/')) {
    throw new InvalidArgumentError(`${what} ${describeValue(value)} must not contain "/"`);
  }
  try {
    validatePath(`/${value}`, { sequential, allowRoot: false });
  } catch (error) {
    throw new InvalidArgumentError(
      `${what} ${describeValue(value)} is not a valid node name: ${(error as Error).message}`,
    );
  }
  return value;
}

function checkPort(what: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new InvalidArgumentError(
      `${what} must be a port number 1-65535; got ${describeValue(value)}`,
    );
  }
}

function defaultAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) return entry.address;
    }
  }
  return undefined;
}

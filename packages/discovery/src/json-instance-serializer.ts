import { InvalidArgumentError, MAX_NODE_DATA_BYTES } from '@zkrecipes/framework';
import {
  booleanOption,
  checkRecipeOptions,
  describeValue,
  quoteString,
  readJson,
  writeJson,
  type JsonValue,
} from '@zkrecipes/framework/recipe-support';
import type { ServiceInstance, ServicePayload } from './service-instance.js';
import { checkNodeName, checkServiceInstance, INSTANCE_JSON_FIELDS } from './service-instance.js';
import { ServiceType } from './service-type.js';
import { UriSpec } from './uri-spec.js';

/** Turns instances into node data and back (Curator's `InstanceSerializer`). */
export interface InstanceSerializer<P extends ServicePayload = ServicePayload> {
  /** The node's bytes; throws InvalidArgumentError for an instance that cannot be written. */
  serialize(instance: ServiceInstance<P>): Buffer;
  /** The instance a node holds; throws for bytes that are not one. */
  deserialize(bytes: Uint8Array): ServiceInstance<P>;
}

/** Options of {@link JsonInstanceSerializer}. */
export interface JsonInstanceSerializerOptions {
  /**
   * Curator's `compatibleSerializationMode`: leave `enabled` out of the JSON, so clients older
   * than Curator 2.10 (CURATOR-275) can read it. Default: true, as Curator's default serializer
   * (`JsonInstanceSerializer(Map.class)`); false matches `JsonInstanceSerializer(type, false)`.
   */
  readonly compatibleMode?: boolean | undefined;
  /**
   * The Java class written in the payload's `@class` field, which Curator's reader uses to
   * build the payload. Default: `java.util.LinkedHashMap` (a `Map` payload).
   */
  readonly payloadClass?: string | undefined;
}

/**
 * Curator's `JsonInstanceSerializer`, byte for byte: Jackson's compact JSON with the fields in
 * Curator's order, nulls written, the payload's Java class first in it, `enabled` last and
 * only outside compatible mode. Reading tolerates unknown fields (as Curator does) and drops
 * the payload's `@class`.
 */
export class JsonInstanceSerializer<
  P extends ServicePayload = ServicePayload,
> implements InstanceSerializer<P> {
  readonly #compatibleMode: boolean;
  readonly #payloadClass: string;

  constructor(options: JsonInstanceSerializerOptions = {}) {
    checkRecipeOptions('JsonInstanceSerializer', options, ['compatibleMode', 'payloadClass']);
    this.#compatibleMode = booleanOption('compatibleMode', options.compatibleMode, true);
    const payloadClass = options.payloadClass ?? 'java.util.LinkedHashMap';
    if (typeof payloadClass !== 'string' || !/^[\w$.]+$/.test(payloadClass)) {
      throw new InvalidArgumentError(
        `payloadClass must be a Java class name; got ${describeValue(payloadClass)}`,
      );
    }
    this.#payloadClass = payloadClass;
  }

  serialize(instance: ServiceInstance<P>): Buffer {
    checkServiceInstance(instance, 'instance ');
    const where = `instance ${instance.name}/${instance.id}`;
    const fields: string[] = [];
    for (const field of INSTANCE_JSON_FIELDS) {
      const value = instance[field];
      let text: string;
      if (value === undefined || value === null) text = 'null';
      else if (field === 'payload') text = this.#payload(value as P, `${where} payload`);
      else if (field === 'uriSpec') {
        text = writeJson(
          {
            parts: (value as UriSpec).parts.map((p) => ({ value: p.value, variable: p.variable })),
          },
          `${where} uriSpec`,
        );
      } else text = writeJson(value as JsonValue, `${where} ${field}`);
      fields.push(`${quoteString(field, field)}:${text}`);
    }
    if (!this.#compatibleMode) fields.push(`"enabled":${instance.enabled ? 'true' : 'false'}`);
    const bytes = Buffer.from(`{${fields.join(',')}}`, 'utf8');
    if (bytes.length > MAX_NODE_DATA_BYTES) {
      throw new InvalidArgumentError(
        `${where} is ${bytes.length} bytes as JSON, over the node limit of ${MAX_NODE_DATA_BYTES}`,
      );
    }
    return bytes;
  }

  deserialize(bytes: Uint8Array): ServiceInstance<P> {
    if (!(bytes instanceof Uint8Array)) {
      throw new InvalidArgumentError(
        `deserialize() needs the node's bytes (a Uint8Array); got ${describeValue(bytes)}`,
      );
    }
    const json = readJson(Buffer.from(bytes).toString('utf8'));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new TypeError('a service instance must be a JSON object');
    }
    const object = json as Record<string, JsonValue>;
    const serviceType = object.serviceType ?? ServiceType.DYNAMIC;
    if (!Object.values<unknown>(ServiceType).includes(serviceType)) {
      throw new TypeError(`unknown serviceType ${describeValue(serviceType)}`);
    }
    const registrationTimeUTC = object.registrationTimeUTC ?? 0;
    if (typeof registrationTimeUTC !== 'number') {
      throw new TypeError(
        `registrationTimeUTC ${describeValue(registrationTimeUTC)} is not a number`,
      );
    }
    return Object.freeze({
      name: checkNodeName('name', object.name, false),
      id: checkNodeName('id', object.id, true),
      address: optional(object.address, 'string', 'address'),
      port: optional(object.port, 'number', 'port'),
      sslPort: optional(object.sslPort, 'number', 'sslPort'),
      payload: readPayload(object.payload) as P | undefined,
      registrationTimeUTC,
      serviceType: serviceType as ServiceType,
      uriSpec: readUriSpec(object.uriSpec),
      enabled: object.enabled === undefined ? true : object.enabled === true,
    });
  }

  #payload(payload: P, where: string): string {
    if (typeof payload !== 'object' || Array.isArray(payload)) {
      throw new InvalidArgumentError(
        `${where} must be a JSON object; got ${describeValue(payload)}`,
      );
    }
    if (Object.hasOwn(payload, '@class')) {
      throw new InvalidArgumentError(
        `${where} has an "@class" field: the serializer writes it (set its payloadClass option)`,
      );
    }
    const body = writeJson(payload, where);
    const rest = body === '{}' ? '' : `,${body.slice(1, -1)}`;
    return `{"@class":${quoteString(this.#payloadClass, 'payloadClass')}${rest}}`;
  }
}

function optional<T extends 'string' | 'number'>(
  value: JsonValue | undefined,
  type: T,
  what: string,
): (T extends 'string' ? string : number) | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type)
    throw new TypeError(`${what} ${describeValue(value)} is not a ${type}`);
  return value as T extends 'string' ? string : number;
}

function readPayload(value: JsonValue | undefined): ServicePayload | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`payload ${describeValue(value)} is not a JSON object`);
  }
  const fields = { ...(value as Record<string, JsonValue>) };
  delete fields['@class'];
  return fields;
}

function readUriSpec(value: JsonValue | undefined): UriSpec | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = (value as { parts?: unknown }).parts;
  if (!Array.isArray(parts)) throw new TypeError('uriSpec has no parts');
  return new UriSpec(parts as { value: string; variable: boolean }[]);
}

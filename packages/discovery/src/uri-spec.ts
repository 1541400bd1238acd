import { InvalidArgumentError } from '@zkrecipes/framework';
import { checkOptionsObject, describeValue } from '@zkrecipes/framework/recipe-support';

/** One part of a {@link UriSpec}: literal text, or the name of a variable (Curator's `Part`). */
export interface UriSpecPart {
  /** The text, or the variable's name. */
  readonly value: string;
  /** True for a `{variable}`. */
  readonly variable: boolean;
}

/** What {@link UriSpec.build} reads from an instance (a subset of ServiceInstance). */
export interface UriSpecInstance {
  /** `{name}`. */
  readonly name: string;
  /** `{id}`. */
  readonly id: string;
  /** `{address}`. */
  readonly address?: string | undefined;
  /** `{port}`. */
  readonly port?: number | undefined;
  /** `{ssl-port}`; when set, `{scheme}` is `https`. */
  readonly sslPort?: number | undefined;
  /** `{registration-time-utc}`. */
  readonly registrationTimeUTC: number;
  /** `{service-type}`, in lower case. */
  readonly serviceType?: string | undefined;
}

/**
 * A URI template (Curator's `UriSpec`): `{scheme}://{address}:{port}` becomes
 * `http://10.0.0.3:8080`. Variables: scheme (`https` when the instance has an sslPort, else
 * `http`), name, id, address, port, ssl-port, registration-time-utc, service-type (lower
 * case), `[` and `]` (literal braces), plus any given to {@link build}. An unknown variable
 * becomes the empty string, as in Curator.
 */
export class UriSpec {
  /** The parts in order, as Curator's JSON lists them. */
  readonly parts: readonly UriSpecPart[];

  /** Parses a template, or takes parts as they come from JSON. */
  constructor(spec: string | readonly UriSpecPart[]) {
    if (typeof spec === 'string') this.parts = parse(spec);
    else if (Array.isArray(spec)) this.parts = (spec as readonly unknown[]).map(checkPart);
    else {
      throw new InvalidArgumentError(
        `a UriSpec needs a template string or parts; got ${describeValue(spec)}`,
      );
    }
  }

  /** The URI for `instance` (when given), with `variables` added or overriding. */
  build(instance?: UriSpecInstance, variables: Readonly<Record<string, unknown>> = {}): string {
    if (instance !== undefined && (typeof instance !== 'object' || instance === null)) {
      throw new InvalidArgumentError(
        `build() needs an instance or undefined; got ${describeValue(instance)}`,
      );
    }
    checkOptionsObject(variables, 'variables');
    const values = new Map<string, unknown>([
      ['[', '{'],
      [']', '}'],
      ['scheme', 'http'],
    ]);
    if (instance !== undefined) {
      values.set('name', instance.name);
      values.set('id', instance.id);
      values.set('address', instance.address ?? '');
      values.set('port', instance.port ?? '');
      values.set('ssl-port', instance.sslPort ?? '');
      values.set('registration-time-utc', instance.registrationTimeUTC);
      values.set('service-type', instance.serviceType?.toLowerCase() ?? '');
      if (instance.sslPort !== undefined) values.set('scheme', 'https');
    }
    for (const [key, value] of Object.entries(variables)) values.set(key, value);
    return this.parts
      .map((part) => (part.variable ? text(values.get(part.value)) : part.value))
      .join('');
  }

  /** The template again, e.g. `{scheme}://{address}:{port}`. */
  toString(): string {
    return this.parts.map((p) => (p.variable ? `{${p.value}}` : p.value)).join('');
  }
}

function parse(template: string): UriSpecPart[] {
  const parts: UriSpecPart[] = [];
  let inside = false;
  // Curator's StringTokenizer on "{}" (delimiters returned): empty tokens never appear.
  for (const token of template.split(/([{}])/).filter((t) => t.length > 0)) {
    if (token === '{') {
      if (inside) throw new InvalidArgumentError(`UriSpec ${template}: "{" inside a variable`);
      inside = true;
    } else if (token === '}') {
      if (!inside) throw new InvalidArgumentError(`UriSpec ${template}: "}" without "{"`);
      inside = false;
    } else {
      parts.push({ value: inside ? token.trim() : token, variable: inside });
    }
  }
  if (inside) throw new InvalidArgumentError(`UriSpec ${template}: a variable is not closed`);
  return parts;
}

function checkPart(part: unknown): UriSpecPart {
  const candidate = part as { value?: unknown; variable?: unknown } | null;
  if (typeof candidate?.value !== 'string' || typeof candidate.variable !== 'boolean') {
    throw new InvalidArgumentError(
      `a UriSpec part needs a string value and a boolean variable; got ${describeValue(part)}`,
    );
  }
  return { value: candidate.value, variable: candidate.variable };
}

/** A variable's text, as Java's `StringBuilder.append(Object)` gives it; '' when unknown. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return JSON.stringify(value) ?? '';
  }
}

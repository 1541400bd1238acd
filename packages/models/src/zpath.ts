import { InvalidArgumentError, validatePath } from '@zkrecipes/framework';
import { describeValue } from '@zkrecipes/framework/recipe-support';

/**
 * The parameter names of a path template: `'/users/{id}/posts/{post}'` gives
 * `'id' | 'post'`. With a template typed as plain `string`, `string`.
 */
export type PathParameterNames<P extends string> = string extends P
  ? string
  : P extends `${string}{${infer Name}}${infer Rest}`
    ? Name | PathParameterNames<Rest>
    : never;

/**
 * The values a template needs, one node name per parameter: `{ id: string; post: string }` for
 * `'/users/{id}/posts/{post}'`, `{}` for a template without parameters.
 */
export type PathParams<P extends string> = {
  readonly [Name in PathParameterNames<P>]: string;
};

const PARAMETER = /^\{([A-Za-z_$][\w$]*)\}$/;

/** One segment of a template: a literal node name, or a parameter. */
type Segment = { readonly literal: string } | { readonly parameter: string };

/**
 * A ZooKeeper path with named parameters (Curator's `ZPath`): `/users/{id}/config`. A
 * parameter is a whole node name in braces; {@link resolve} puts a node name in its place,
 * checked as ZooKeeper checks names, so a value cannot climb out of its segment (`..`, `a/b`).
 *
 * ```ts
 * const path = ZPath.parse('/users/{id}/config');
 * path.resolve({ id: '42' }); // '/users/42/config'
 * ```
 */
export class ZPath<P extends string = string> {
  readonly #template: P;
  readonly #segments: readonly Segment[];
  readonly #parameters: readonly string[];

  private constructor(template: P, segments: readonly Segment[]) {
    this.#template = template;
    this.#segments = segments;
    this.#parameters = segments.flatMap((s) => ('parameter' in s ? [s.parameter] : []));
  }

  /**
   * Parses `template`; InvalidArgumentError when it is not an absolute ZooKeeper path once its
   * parameters are filled in, when braces appear other than around a whole node name, or when a
   * parameter name is not an identifier or is used twice.
   */
  static parse<P extends string>(template: P): ZPath<P> {
    if (typeof template !== 'string') {
      throw new InvalidArgumentError(
        `a path template must be a string, not ${describeValue(template)}`,
      );
    }
    const segments: Segment[] = [];
    const seen = new Set<string>();
    const names = template === '/' ? [] : template.split('/').slice(1);
    for (const name of names) {
      const parameter = PARAMETER.exec(name)?.[1];
      if (parameter !== undefined) {
        if (seen.has(parameter)) {
          throw new InvalidArgumentError(`parameter "${parameter}" appears twice`, {
            path: template,
          });
        }
        seen.add(parameter);
        segments.push({ parameter });
      } else if (/[{}]/.test(name)) {
        throw new InvalidArgumentError(
          `"${name}" is not a parameter: a parameter is a whole node name like {id}`,
          { path: template },
        );
      } else segments.push({ literal: name });
    }
    // The template with a placeholder name in each parameter must be a valid path.
    validatePath(template.startsWith('/') ? joined(segments, () => 'p') : template);
    return new ZPath(template, segments);
  }

  /** The template as given. */
  get template(): P {
    return this.#template;
  }

  /** The parameter names, in template order. */
  get parameterNames(): readonly string[] {
    return this.#parameters;
  }

  /** Whether the template has no parameter (it is a path as it stands). */
  get isResolved(): boolean {
    return this.#parameters.length === 0;
  }

  /**
   * The deepest path of the template without a parameter: `/users` for `/users/{id}/config`,
   * the whole path when it has none.
   */
  get literalPrefix(): string {
    const first = this.#segments.findIndex((s) => 'parameter' in s);
    return joined(first === -1 ? this.#segments : this.#segments.slice(0, first), () => '');
  }

  /**
   * The path with each parameter replaced by its value. InvalidArgumentError when a parameter
   * is missing, an unknown one is given, or a value is not a valid node name.
   */
  resolve(params: PathParams<P>): string {
    if (typeof params !== 'object' || params === null) {
      throw new InvalidArgumentError(`parameters must be an object, not ${describeValue(params)}`, {
        path: this.#template,
      });
    }
    const values = params as Readonly<Record<string, unknown>>;
    for (const key of Object.keys(values)) {
      if (!this.#parameters.includes(key)) {
        throw new InvalidArgumentError(`unknown parameter "${key}"`, { path: this.#template });
      }
    }
    return joined(this.#segments, (name) => {
      const value = values[name];
      if (value === undefined) {
        throw new InvalidArgumentError(`parameter "${name}" is missing`, { path: this.#template });
      }
      checkNodeName(name, value, this.#template);
      return value as string;
    });
  }

  /**
   * The parameters that resolve to `path`, or undefined when `path` is not one of the
   * template's paths (a parent, a child, a different literal).
   */
  match(path: string): PathParams<P> | undefined {
    const names = path === '/' ? [] : path.split('/').slice(1);
    if (!path.startsWith('/') || names.length !== this.#segments.length) return undefined;
    const params: Record<string, string> = {};
    for (const [i, segment] of this.#segments.entries()) {
      const name = names[i]!;
      if ('literal' in segment) {
        if (segment.literal !== name) return undefined;
      } else params[segment.parameter] = name;
    }
    return params as PathParams<P>;
  }

  /** The template. */
  toString(): string {
    return this.#template;
  }
}

function joined(segments: readonly Segment[], value: (parameter: string) => string): string {
  if (segments.length === 0) return '/';
  return segments.map((s) => `/${'literal' in s ? s.literal : value(s.parameter)}`).join('');
}

/** A parameter value must be one node name: a string ZooKeeper accepts, without `/`. */
function checkNodeName(name: string, value: unknown, template: string): void {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(
      `parameter "${name}" must be a string, not ${describeValue(value)}`,
      { path: template },
    );
  }
  if (value === '' || value.includes('/')) {
    throw new InvalidArgumentError(
      `parameter "${name}" must be one node name, not ${JSON.stringify(value)}`,
      { path: template },
    );
  }
  try {
    validatePath(`/${value}`);
  } catch (error) {
    throw new InvalidArgumentError(
      `parameter "${name}" is not a valid node name: ${(error as Error).message}`,
      { path: template, cause: error },
    );
  }
}

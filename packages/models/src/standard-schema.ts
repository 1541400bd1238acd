// The Standard Schema interface (https://standardschema.dev, version 1), declared here from the
// spec rather than imported: it is a handful of types that the spec asks libraries to copy, so
// zod, valibot, arktype and the like are accepted structurally without this package depending on
// any of them, or on a types package, at install time.

/**
 * A schema in the Standard Schema form: what zod (3.24+), valibot (1.0+), arktype (2.0+) and
 * other libraries' schemas are. A model validates every value with it before writing, and every
 * value it reads.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a {@link StandardSchemaV1}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The spec's version: 1. */
  readonly version: 1;
  /** The library that made the schema (`'zod'`, `'valibot'`, ...). */
  readonly vendor: string;
  /** Validates a value: its output, or the issues; possibly asynchronously. */
  readonly validate: (
    value: unknown,
  ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  /** Type-level only: the schema's input and output types. */
  readonly types?: StandardSchemaTypes<Input, Output> | undefined;
}

/** What `validate` gives: the output value, or issues. */
export type StandardSchemaResult<Output> =
  | {
      /** The validated (possibly transformed) value. */
      readonly value: Output;
      /** Absent on success. */
      readonly issues?: undefined;
    }
  | {
      /** Why the value is not valid; never empty. */
      readonly issues: readonly StandardSchemaIssue[];
    };

/** One reason a value is not valid. */
export interface StandardSchemaIssue {
  /** What is wrong, in the schema library's words. */
  readonly message: string;
  /** Where in the value: keys and indexes from the root. */
  readonly path?: readonly (PropertyKey | StandardSchemaPathSegment)[] | undefined;
}

/** A path element of an issue, when the library wraps keys in objects. */
export interface StandardSchemaPathSegment {
  /** The key or index. */
  readonly key: PropertyKey;
}

/** The type-level input and output of a schema. */
export interface StandardSchemaTypes<Input = unknown, Output = Input> {
  /** The type of the values the schema accepts. */
  readonly input: Input;
  /** The type of the values validation produces. */
  readonly output: Output;
}

/** The input type of a schema: what a model's writes take. */
export type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];

/** The output type of a schema: what a model's reads give. */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<
  S['~standard']['types']
>['output'];

/** `issues` as one line: `name: Expected string; tags.1: Invalid`. */
export function describeIssues(issues: readonly StandardSchemaIssue[]): string {
  return issues
    .map((issue) => {
      const where = (issue.path ?? [])
        .map((part) => String(typeof part === 'object' ? part.key : part))
        .join('.');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}

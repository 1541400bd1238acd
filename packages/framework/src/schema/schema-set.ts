import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { SchemaViolationError } from '../errors/schema-violation-error.js';
import { describeValue } from '../errors/describe-value.js';
import { checkOptionsObject } from '../checks/option-checks.js';
import { Schema, type SchemaOptions } from './schema.js';

/** Options of {@link SchemaSet}. */
export interface SchemaSetOptions {
  /**
   * A path no schema matches is allowed everything (true), or refused with a
   * SchemaViolationError (false). Default: true.
   */
  readonly useDefaultSchema?: boolean | undefined;
}

/** What a path no schema matches gets when the set has a default: everything allowed. */
const DEFAULT_SCHEMA = new Schema({
  name: '__default__',
  path: '/',
  documentation: 'Default schema',
});

/**
 * The schemas of a client (Curator's `SchemaSet`), given as the `schemaSet` option of
 * createFramework: every create, setData, setAcl, delete, read (its watch) and transaction op
 * is checked against the schema of its path before anything is sent. A path's schema is the
 * one with exactly that path, else the first pattern (in the order given) matching the whole
 * path, else the default.
 */
export class SchemaSet {
  readonly #byName = new Map<string, Schema>();
  readonly #byPath = new Map<string, Schema>();
  readonly #patterns: Schema[] = [];
  readonly #useDefaultSchema: boolean;

  /** The set that allows everything (Curator's `getDefaultSchemaSet`): the same as none. */
  static getDefaultSchemaSet(): SchemaSet {
    return new SchemaSet([], { useDefaultSchema: true });
  }

  constructor(schemas: readonly (Schema | SchemaOptions)[], options: SchemaSetOptions = {}) {
    if (!Array.isArray(schemas)) {
      throw new InvalidArgumentError(`schemas must be an array; got ${describeValue(schemas)}`);
    }
    checkOptionsObject(options);
    const { useDefaultSchema = true } = options;
    if (typeof useDefaultSchema !== 'boolean') {
      throw new InvalidArgumentError(
        `useDefaultSchema must be a boolean; got ${describeValue(useDefaultSchema)}`,
      );
    }
    this.#useDefaultSchema = useDefaultSchema;
    for (const given of schemas as readonly unknown[]) {
      const schema = given instanceof Schema ? given : new Schema(given as SchemaOptions);
      if (this.#byName.has(schema.name)) {
        throw new InvalidArgumentError(`two schemas are named '${schema.name}'`);
      }
      this.#byName.set(schema.name, schema);
      if (schema.path === undefined) {
        this.#patterns.push(schema);
      } else if (this.#byPath.has(schema.path)) {
        throw new InvalidArgumentError(`two schemas have the path '${schema.path}'`);
      } else {
        this.#byPath.set(schema.path, schema);
      }
    }
  }

  /** The schemas, in the order given. */
  get schemas(): readonly Schema[] {
    return [...this.#byName.values()];
  }

  /** Whether a path no schema matches is allowed everything. */
  get useDefaultSchema(): boolean {
    return this.#useDefaultSchema;
  }

  /** True for a set that allows everything (no schemas, with the default): checks nothing. */
  get allowsEverything(): boolean {
    return this.#byName.size === 0 && this.#useDefaultSchema;
  }

  /**
   * The schema of `path`: exact path first, then the first matching pattern, then the default
   * schema; without a default, a SchemaViolationError (rule `'schema'`).
   */
  getSchema(path: string): Schema {
    const exact = this.#byPath.get(path);
    if (exact !== undefined) return exact;
    for (const schema of this.#patterns) {
      if (schema.matchesPattern(path)) return schema;
    }
    if (this.#useDefaultSchema) return DEFAULT_SCHEMA;
    throw new SchemaViolationError({
      path,
      schemaName: undefined,
      rule: 'schema',
      violation: `No schema found for: ${path}`,
    });
  }

  /** The schema named `name`, or undefined. */
  getNamedSchema(name: string): Schema | undefined {
    return this.#byName.get(name);
  }

  /** A description of every schema, for people (Curator's `toDocumentation`). */
  toDocumentation(): string {
    if (this.allowsEverything) return 'Default schema';
    const parts = ['Curator Schemas:\n'];
    for (const schema of this.#byName.values())
      parts.push(`${schema.name}\n${schema.toDocumentation()}`);
    return parts.join('\n');
  }
}

import { randomUUID } from 'node:crypto';
import type { Buffer } from 'node:buffer';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { SchemaViolationError, type SchemaRule } from '../errors/schema-violation-error.js';
import { describeValue } from '../errors/describe-value.js';
import { closestName } from '../checks/closest-name.js';
import { checkFunction, checkOptionsObject } from '../checks/option-checks.js';
import type { Acl, CreateMode } from '../zk/zookeeper-types.js';

/** Whether a schema allows, requires or forbids a property (Curator's `Schema.Allowance`). */
export const Allowance = {
  /** Allowed, not required. */
  CAN: 'CAN',
  /** Required. */
  MUST: 'MUST',
  /** Forbidden. */
  CANNOT: 'CANNOT',
} as const;
/** `'CAN' | 'MUST' | 'CANNOT'`. */
export type Allowance = (typeof Allowance)[keyof typeof Allowance];

/** What a schema's `dataValidator` is asked about. */
export interface SchemaDataInput {
  /** The schema that matched the path. */
  readonly schema: Schema;
  /** The path of the call, as it was given (in the client's namespace). */
  readonly path: string;
  /** The data of a create or setData; undefined for setAcl. */
  readonly data: Buffer | undefined;
  /** The ACL of a create or setAcl; undefined for setData. */
  readonly acl: readonly Acl[] | undefined;
}

/** Curator's `SchemaValidator`: true when the data (and ACL) are valid for the path. */
export type SchemaDataValidator = (input: SchemaDataInput) => boolean;

/** Options of {@link Schema}: `path` or `pathPattern`, every rule defaulting to "allowed". */
export interface SchemaOptions {
  /** The schema's name, unique in its set. Default: a random UUID. */
  readonly name?: string | undefined;
  /** The exact path this schema applies to. Exact paths take precedence over patterns. */
  readonly path?: string | undefined;
  /** The paths this schema applies to: those the pattern matches as a whole (Java's `matches`). */
  readonly pathPattern?: RegExp | undefined;
  /** Free text for {@link Schema.toDocumentation}. Default: empty. */
  readonly documentation?: string | undefined;
  /** Whether a create may, must or must not be ephemeral. Default: CAN. */
  readonly ephemeral?: Allowance | undefined;
  /** Whether a create may, must or must not be sequential. Default: CAN. */
  readonly sequential?: Allowance | undefined;
  /** Whether a read (exists, getData, getChildren) may, must or must not set a watch. Default: CAN. */
  readonly watched?: Allowance | undefined;
  /** Whether the node may be deleted. Default: true. */
  readonly canBeDeleted?: boolean | undefined;
  /** Checks the data (and ACL) of creates, setData and setAcl. Default: everything is valid. */
  readonly dataValidator?: SchemaDataValidator | undefined;
  /** Anything you want to keep with the schema. Default: empty. */
  readonly metadata?: Readonly<Record<string, string>> | undefined;
}

const KNOWN: readonly (keyof SchemaOptions)[] = [
  'name',
  'path',
  'pathPattern',
  'documentation',
  'ephemeral',
  'sequential',
  'watched',
  'canBeDeleted',
  'dataValidator',
  'metadata',
];
const ALLOWANCES: readonly string[] = Object.values(Allowance);
const anythingGoes: SchemaDataValidator = () => true;

function allowance(name: string, value: unknown): Allowance {
  if (value === undefined) return 'CAN';
  if (typeof value === 'string' && ALLOWANCES.includes(value)) return value as Allowance;
  throw new InvalidArgumentError(
    `schema ${name} must be 'CAN', 'MUST' or 'CANNOT'; got ${describeValue(value)}`,
  );
}

/**
 * The operations allowed on a path or on the paths of a pattern (Curator's `Schema`), checked
 * by a client given a {@link SchemaSet} before anything is sent. Invalid options throw an
 * InvalidArgumentError.
 */
export class Schema {
  /** The schema's name, unique in its set. */
  readonly name: string;
  /** The exact path, or undefined for a pattern schema. */
  readonly path: string | undefined;
  /** The pattern, or undefined for an exact-path schema. */
  readonly pathPattern: RegExp | undefined;
  /** Free text for {@link toDocumentation}. */
  readonly documentation: string;
  /** Whether a create may, must or must not be ephemeral. */
  readonly ephemeral: Allowance;
  /** Whether a create may, must or must not be sequential. */
  readonly sequential: Allowance;
  /** Whether a read may, must or must not set a watch. */
  readonly watched: Allowance;
  /** Whether the node may be deleted. */
  readonly canBeDeleted: boolean;
  /** Checks the data (and ACL) of creates, setData and setAcl. */
  readonly dataValidator: SchemaDataValidator;
  /** What was given as `metadata`, frozen. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly #whole: RegExp | undefined;

  constructor(options: SchemaOptions) {
    checkOptionsObject(options, 'schema options');
    for (const key of Object.keys(options)) {
      if ((KNOWN as readonly string[]).includes(key)) continue;
      const near = closestName(key, KNOWN);
      throw new InvalidArgumentError(
        `unknown schema option '${key}'${near === undefined ? '' : ` (did you mean '${near}'?)`}`,
      );
    }
    const { path, pathPattern } = options;
    if ((path === undefined) === (pathPattern === undefined)) {
      throw new InvalidArgumentError('a schema needs exactly one of path and pathPattern');
    }
    if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/'))) {
      throw new InvalidArgumentError(`schema path must start with "/"; got ${describeValue(path)}`);
    }
    if (pathPattern !== undefined && !(pathPattern instanceof RegExp)) {
      throw new InvalidArgumentError(
        `schema pathPattern must be a RegExp; got ${describeValue(pathPattern)}`,
      );
    }
    const { name = randomUUID(), documentation = '', metadata = {} } = options;
    if (typeof name !== 'string' || name === '') {
      throw new InvalidArgumentError(
        `schema name must be a non-empty string; got ${describeValue(name)}`,
      );
    }
    if (typeof documentation !== 'string') {
      throw new InvalidArgumentError(
        `schema documentation must be a string; got ${describeValue(documentation)}`,
      );
    }
    if (typeof options.canBeDeleted !== 'boolean' && options.canBeDeleted !== undefined) {
      throw new InvalidArgumentError(
        `schema canBeDeleted must be a boolean; got ${describeValue(options.canBeDeleted)}`,
      );
    }
    if (options.dataValidator !== undefined) checkFunction('dataValidator', options.dataValidator);
    this.name = name;
    this.path = path;
    this.pathPattern = pathPattern;
    // Java's Matcher.matches(): the whole path, whatever the pattern's own anchors.
    this.#whole =
      pathPattern === undefined
        ? undefined
        : new RegExp(`^(?:${pathPattern.source})$`, pathPattern.flags.replace(/[gy]/g, ''));
    this.documentation = documentation;
    this.ephemeral = allowance('ephemeral', options.ephemeral);
    this.sequential = allowance('sequential', options.sequential);
    this.watched = allowance('watched', options.watched);
    this.canBeDeleted = options.canBeDeleted ?? true;
    this.dataValidator = options.dataValidator ?? anythingGoes;
    this.metadata = Object.freeze({ ...metadata });
  }

  /** The exact path, or the pattern's source. */
  get rawPath(): string {
    return this.path ?? this.pathPattern!.source;
  }

  /** @internal Whether this pattern schema matches the whole of `path`. */
  matchesPattern(path: string): boolean {
    return this.#whole !== undefined && this.#whole.test(path);
  }

  /** Throws a SchemaViolationError unless a create in `mode` with this data and ACL is allowed. */
  validateCreate(mode: CreateMode, path: string, data: Buffer, acl: readonly Acl[]): void {
    const ephemeral = mode === 'EPHEMERAL' || mode === 'EPHEMERAL_SEQUENTIAL';
    if (ephemeral && this.ephemeral === 'CANNOT')
      this.#fail(path, 'ephemeral', 'Cannot be ephemeral');
    if (!ephemeral && this.ephemeral === 'MUST') this.#fail(path, 'ephemeral', 'Must be ephemeral');
    const sequential = mode.includes('SEQUENTIAL');
    if (sequential && this.sequential === 'CANNOT') {
      this.#fail(path, 'sequential', 'Cannot be sequential');
    }
    if (!sequential && this.sequential === 'MUST')
      this.#fail(path, 'sequential', 'Must be sequential');
    this.validateGeneral(path, data, acl);
  }

  /** Throws a SchemaViolationError unless the node may be deleted. */
  validateDelete(path: string): void {
    if (!this.canBeDeleted) this.#fail(path, 'canBeDeleted', 'Cannot be deleted');
  }

  /** Throws a SchemaViolationError unless a read with (or without) a watch is allowed. */
  validateWatch(path: string, watching: boolean): void {
    if (watching && this.watched === 'CANNOT') this.#fail(path, 'watched', 'Cannot be watched');
    if (!watching && this.watched === 'MUST') this.#fail(path, 'watched', 'Must be watched');
  }

  /** Throws a SchemaViolationError unless the data validator accepts the data and ACL. */
  validateGeneral(path: string, data: Buffer | undefined, acl: readonly Acl[] | undefined): void {
    let valid: boolean;
    try {
      valid = this.dataValidator({ schema: this, path, data, acl });
    } catch (error) {
      return this.#fail(path, 'data', 'Data is not valid', error);
    }
    if (valid !== true) this.#fail(path, 'data', 'Data is not valid');
  }

  /** A description for people (Curator's `toDocumentation`). */
  toDocumentation(): string {
    const label = this.pathPattern === undefined ? 'Path' : 'Path Regex';
    return [
      `Name: ${this.name}`,
      `${label}: ${this.rawPath}`,
      `Doc: ${this.documentation}`,
      `Meta: ${JSON.stringify(this.metadata)}`,
      `ephemeral: ${this.ephemeral} | sequential: ${this.sequential} | watched: ${this.watched} | canBeDeleted: ${String(this.canBeDeleted)}`,
      '',
    ].join('\n');
  }

  #fail(path: string, rule: SchemaRule, violation: string, cause?: unknown): never {
    throw new SchemaViolationError({ path, schemaName: this.name, rule, violation, cause });
  }
}

import { type Acl, CreateMode, InvalidArgumentError } from '@zkrecipes/framework';
import {
  booleanOption,
  checkOptionsObject,
  checkRecipeOptions,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { JacksonModelSerializer, type ModelSerializer } from './model-serializer.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { ZPath } from './zpath.js';

/** The modes a model node can be created in: a model's node is named by its path. */
export type ModelCreateMode = 'PERSISTENT' | 'EPHEMERAL' | 'CONTAINER' | 'PERSISTENT_WITH_TTL';

/**
 * What a model is (Curator's `ModelSpec`): where its nodes are, what their values look like,
 * how they are written. Defaults are Curator's `ModelSpec.builder` defaults.
 */
export interface ModelSpec<S extends StandardSchemaV1, P extends string> {
  /** The nodes' path template, e.g. `/users/{id}` (see {@link ZPath}). */
  readonly path: P;
  /** Checks every value written and read: any Standard Schema (zod, valibot, arktype, ...). */
  readonly schema: S;
  /** Default: {@link JacksonModelSerializer}, JSON as Curator's JacksonModelSerializer writes it. */
  readonly serializer?: ModelSerializer | undefined;
  /** The mode `set` creates a node in. Default: 'PERSISTENT'. */
  readonly createMode?: ModelCreateMode | undefined;
  /** With 'PERSISTENT_WITH_TTL': the time to live in ms. */
  readonly ttlMs?: number | undefined;
  /** The ACL `set` creates a node with. Default: the client's ACL provider. */
  readonly acl?: readonly Acl[] | undefined;
  /**
   * `set` creates missing parents as CONTAINER nodes (Curator's default create options,
   * `createParentsAsContainers`). Default: true.
   */
  readonly createParents?: boolean | undefined;
  /**
   * `delete` keeps deleting in the background after a lost connection (Curator's default
   * delete option, `guaranteed`). Default: true.
   */
  readonly guaranteedDelete?: boolean | undefined;
}

/** A {@link ModelSpec} checked, with its defaults filled in. */
export interface CheckedSpec<S extends StandardSchemaV1, P extends string> {
  readonly zpath: ZPath<P>;
  readonly schema: S;
  readonly serializer: ModelSerializer;
  readonly createMode: ModelCreateMode;
  readonly ttlMs: number | undefined;
  readonly acl: readonly Acl[] | undefined;
  readonly createParents: boolean;
  readonly guaranteedDelete: boolean;
}

const KNOWN = [
  'path',
  'schema',
  'serializer',
  'createMode',
  'ttlMs',
  'acl',
  'createParents',
  'guaranteedDelete',
];
const MODES: readonly string[] = [
  CreateMode.PERSISTENT,
  CreateMode.EPHEMERAL,
  CreateMode.CONTAINER,
  CreateMode.PERSISTENT_WITH_TTL,
];

/** Checks a spec before anything is sent; InvalidArgumentError says what is wrong. */
export function checkModelSpec<S extends StandardSchemaV1, P extends string>(
  recipe: string,
  spec: ModelSpec<S, P>,
): CheckedSpec<S, P> {
  if (spec === undefined) throw new InvalidArgumentError(`${recipe} needs a model spec`);
  checkOptionsObject(spec, 'spec');
  checkRecipeOptions(recipe, spec, KNOWN);
  const zpath = ZPath.parse(spec.path);
  const standard = (spec.schema as Partial<StandardSchemaV1> | undefined)?.['~standard'];
  if (typeof standard?.validate !== 'function' || standard.version !== 1) {
    throw new InvalidArgumentError(
      `${recipe}: schema must be a Standard Schema (version 1, with ~standard.validate); got ${describeValue(spec.schema)}`,
    );
  }
  const serializer = spec.serializer ?? JacksonModelSerializer;
  if (typeof serializer.serialize !== 'function' || typeof serializer.deserialize !== 'function') {
    throw new InvalidArgumentError(
      `${recipe}: serializer needs serialize() and deserialize(); got ${describeValue(serializer)}`,
    );
  }
  const createMode = spec.createMode ?? CreateMode.PERSISTENT;
  if (!MODES.includes(createMode)) {
    throw new InvalidArgumentError(
      `${recipe}: createMode must be one of ${MODES.join(', ')}; got ${describeValue(createMode)}`,
    );
  }
  return {
    zpath,
    schema: spec.schema,
    serializer,
    createMode,
    // The client checks ttlMs against the mode at the create, before sending.
    ttlMs: spec.ttlMs,
    acl: spec.acl,
    createParents: booleanOption('createParents', spec.createParents, true),
    guaranteedDelete: booleanOption('guaranteedDelete', spec.guaranteedDelete, true),
  };
}

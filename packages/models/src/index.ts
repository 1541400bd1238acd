// @zkrecipes/models: explicit named exports only.
export { ModeledFramework } from './modeled-framework.js';
export type {
  ModelDeleteOptions,
  ModelNode,
  ModelSetOptions,
  ModelUpdateOptions,
} from './modeled-framework.js';
export type { ModelCreateMode, ModelSpec } from './model-spec.js';
export { ModelCodec } from './model-codec.js';
export type { ModelWatchEvent } from './model-watch.js';
export { CachedModeledFramework } from './cached-modeled-framework.js';
export type { ModelCacheEvent } from './cached-modeled-framework.js';
export { ZPath } from './zpath.js';
export type { PathParameterNames, PathParams } from './zpath.js';
export { JacksonModelSerializer } from './model-serializer.js';
export type { ModelSerializer } from './model-serializer.js';
export { describeIssues } from './standard-schema.js';
export type {
  InferInput,
  InferOutput,
  StandardSchemaIssue,
  StandardSchemaPathSegment,
  StandardSchemaProps,
  StandardSchemaResult,
  StandardSchemaTypes,
  StandardSchemaV1,
} from './standard-schema.js';
export { isModelValidation, ModelValidationError } from './model-validation-error.js';
export { isModelData, ModelDataError } from './model-data-error.js';
export { MigrationManager } from './migrations/migration-manager.js';
export type { MigrationManagerOptions } from './migrations/migration-manager.js';
export type { Migration, MigrationSet } from './migrations/migration-set.js';
export { isMigrationError, MigrationError } from './migrations/migration-error.js';
export { migrationHash } from './migrations/migration-hash.js';

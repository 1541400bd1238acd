// Curator's `create().orSetData(version)`: the create met an existing node, so its data is set
// instead, on condition of `version` (-1: any); after a lost reply a conflict is
// OutcomeUnknownError, never a guess (docs/architecture.md, "Retries and lost replies").
import { validateVersion } from '../checks/validate-number.js';
import { describeValue } from '../errors/describe-value.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { isBadVersion, isNoNode } from '../errors/predicates.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import type { Stat } from '../zk/zookeeper-types.js';
import type { CreateDeps, CreateRequest } from './create-node.js';
import { IdempotentWrite } from './idempotent-write.js';
import { statAfterLostReply } from './lost-reply-results.js';

/**
 * The `orSetData` option as the version the existing node must have: undefined without it,
 * -1 for `true`, `version` for `{ version }`. Throws InvalidArgumentError on anything else.
 */
export function checkOrSetData(value: unknown): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return -1;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { version } = value as { version?: unknown };
    if (version === undefined) {
      throw new InvalidArgumentError('orSetData: { version } needs a version (-1 for any)');
    }
    validateVersion(version, 'orSetData.version');
    return version;
  }
  throw new InvalidArgumentError(
    `orSetData must be true, false or { version }; got ${describeValue(value)}`,
  );
}

/**
 * Sets the existing node's data on condition of `version`: through the call's witness with
 * `idempotent`, else as one attempt whose conflict after a lost reply is OutcomeUnknownError.
 */
export async function setExistingData(
  deps: CreateDeps,
  request: CreateRequest,
  path: string,
  version: number,
): Promise<Stat> {
  const { ops, write } = deps;
  const { data, signal } = request;
  if (write instanceof IdempotentWrite) {
    const outcome = await write.attemptOne({ type: 'setData', path, data, version }, signal);
    if (outcome.applied === 'now') return (outcome.results[0] as { stat: Stat }).stat;
    return statAfterLostReply(ops, path, outcome, version, signal);
  }
  try {
    return await write.attempt(ops.setData(path, data, version, signal));
  } catch (error) {
    // After a lost reply (of this setData or of the create before it) the conflict may be of
    // our own making: another writer's very same bytes cannot be told from ours, so nothing
    // the node holds is taken as an answer (`idempotent: true` answers exactly).
    if (!write.ambiguous || !(isBadVersion(error) || isNoNode(error))) throw error;
    throw new OutcomeUnknownError({ operation: 'create', path, answer: error });
  }
}

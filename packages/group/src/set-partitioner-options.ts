import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  InvalidArgumentError,
  joinPath,
  validatePath,
  validateTimeoutMs,
} from '@zkrecipes/framework';
import {
  booleanOption,
  checkFunction,
  checkRecipeOptions,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { type PartitionFunction, roundRobinPartitions } from './partition-function.js';

/** Options of {@link SetPartitioner}. */
export interface SetPartitionerOptions {
  /**
   * The set to share out: node names (no `/`), each once. The lock of partition `p` is
   * `<path>/locks/<p>`. Required; may be empty (every member then owns nothing).
   */
  readonly partitions: readonly string[];
  /**
   * This member's id in the group: its node `<path>/party/<identifier>`, and what the partition
   * function is told. Must be unique in the group. Default: `<hostname>-<pid>-<random>`.
   */
  readonly identifier?: string | undefined;
  /** Who owns what, given the members. Default: {@link roundRobinPartitions}. */
  readonly partitionFunction?: PartitionFunction | undefined;
  /**
   * How long the group must stay unchanged before the members acquire (kazoo's
   * `time_boundary`): joins and leaves that come in a burst cause one reshuffle, not one per
   * change. Default: 1000 ms.
   */
  readonly timeBoundaryMs?: number | undefined;
  /**
   * Release the set as soon as the partitioner enters RELEASE instead of waiting for
   * `releaseSet()`. Default: false (kazoo's way: the application stops its work first).
   */
  readonly autoRelease?: boolean | undefined;
}

/** {@link SetPartitionerOptions}, checked, with the defaults filled in. */
export interface SetPartitionerConfig {
  readonly partitions: readonly string[];
  readonly identifier: string;
  readonly partitionFunction: PartitionFunction;
  readonly timeBoundaryMs: number;
  readonly autoRelease: boolean;
  /** `<path>/party`: the group. */
  readonly partyPath: string;
  /** `<path>/locks`: the parent of the partitions' locks. */
  readonly locksPath: string;
}

const KNOWN = ['partitions', 'identifier', 'partitionFunction', 'timeBoundaryMs', 'autoRelease'];
const DEFAULT_TIME_BOUNDARY_MS = 1000;

/** Checks the options of `new SetPartitioner(client, path, options)`: InvalidArgumentError. */
export function setPartitionerConfig(path: string, options: unknown): SetPartitionerConfig {
  validatePath(path);
  if (options === undefined) {
    throw new InvalidArgumentError('SetPartitioner needs options with partitions', { path });
  }
  checkRecipeOptions('SetPartitioner', options, KNOWN);
  const given = options as Partial<Record<keyof SetPartitionerOptions, unknown>>;
  const partyPath = joinPath(path, 'party');
  const locksPath = joinPath(path, 'locks');
  const partitions = checkPartitions(locksPath, given.partitions);
  const identifier =
    given.identifier === undefined
      ? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`
      : checkNodeName('identifier', partyPath, given.identifier);
  if (given.partitionFunction !== undefined) {
    checkFunction('partitionFunction', given.partitionFunction);
  }
  const timeBoundaryMs = given.timeBoundaryMs ?? DEFAULT_TIME_BOUNDARY_MS;
  validateTimeoutMs('timeBoundaryMs', timeBoundaryMs);
  return {
    partitions,
    identifier,
    partitionFunction:
      (given.partitionFunction as PartitionFunction | undefined) ?? roundRobinPartitions,
    timeBoundaryMs,
    autoRelease: booleanOption('autoRelease', given.autoRelease, false),
    partyPath,
    locksPath,
  };
}

function checkPartitions(locksPath: string, value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(
      `partitions must be an array of node names; got ${describeValue(value)}`,
      { path: locksPath },
    );
  }
  const seen = new Set<string>();
  for (const partition of value as unknown[]) {
    const name = checkNodeName('a partition', locksPath, partition);
    if (seen.has(name)) {
      throw new InvalidArgumentError(`partition ${JSON.stringify(name)} is given twice`, {
        path: locksPath,
      });
    }
    seen.add(name);
  }
  return [...seen];
}

function checkNodeName(what: string, parent: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.includes('/')) {
    throw new InvalidArgumentError(
      `${what} must be a non-empty node name without "/"; got ${describeValue(value)}`,
      { path: parent },
    );
  }
  validatePath(joinPath(parent, value));
  return value;
}

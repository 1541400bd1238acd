import { UnimplementedError } from '../errors/zookeeper-error-classes.js';
import { isUnimplemented, isZooKeeperError } from '../errors/predicates.js';
import type { CreateMode } from './zookeeper-types.js';

/** The features a request the framework writes itself may need. */
export type MissingFeature = CreateMode | 'getEphemerals' | 'getAllChildrenNumber';

/** What each request the framework writes itself needs from the server. */
const FEATURES: Readonly<Record<string, string>> = {
  CONTAINER: 'container nodes (CreateMode CONTAINER) need ZooKeeper 3.5.1 or later',
  PERSISTENT_WITH_TTL:
    'TTL nodes are disabled on this server: start it with ' +
    'zookeeper.extendedTypesEnabled=true (ZooKeeper 3.5.3+)',
  PERSISTENT_SEQUENTIAL_WITH_TTL:
    'TTL nodes are disabled on this server: start it with ' +
    'zookeeper.extendedTypesEnabled=true (ZooKeeper 3.5.3+)',
  getEphemerals: 'getEphemerals needs ZooKeeper 3.6 or later',
  getAllChildrenNumber: 'getAllChildrenNumber needs ZooKeeper 3.6 or later',
  create2: 'create2 (a create answered with the Stat) needs ZooKeeper 3.5 or later',
};

/**
 * `error` as it should reach the caller: an UNIMPLEMENTED answer to one of the requests the
 * framework writes itself becomes an UnimplementedError naming the missing feature or setting;
 * anything else is returned unchanged.
 */
export function missingFeature(error: unknown, feature: MissingFeature): unknown {
  if (!isUnimplemented(error) || !isZooKeeperError(error)) return error;
  const detail = FEATURES[feature] ?? FEATURES.create2;
  return new UnimplementedError({ path: error.path, detail, cause: error });
}

import type { ZooKeeperConnection } from './zookeeper-connection.js';

/**
 * One attempt of each ZooKeeper operation, as the client calls it: the connection's
 * operations (documented there), without its lifecycle. Test fakes implement this.
 */
export type ZooKeeperOperations = Pick<
  ZooKeeperConnection,
  | 'create'
  | 'create2'
  | 'sync'
  | 'getEphemerals'
  | 'getAllChildrenNumber'
  | 'delete'
  | 'exists'
  | 'getData'
  | 'setData'
  | 'getConfig'
  | 'reconfig'
  | 'getChildren'
  | 'getAcl'
  | 'setAcl'
  | 'multi'
  | 'addWatch'
  | 'removeWatches'
  | 'listenPersistently'
>;

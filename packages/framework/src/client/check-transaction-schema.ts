import type { SchemaSet } from '../schema/schema-set.js';
import type { WireTransactionOp } from '../zk/zookeeper-types.js';
import type { TransactionOp } from './transaction-op.js';

/**
 * Checks every op of a transaction against its path's schema before any is sent (Curator's
 * `CuratorMultiTransaction`): a create's mode and data, a delete's `canBeDeleted`, a setData's
 * data; a check op has nothing to break. `wireOps[i]` is `ops[i]` resolved (data, ACL).
 */
export function checkTransactionSchema(
  schemaSet: SchemaSet,
  ops: readonly TransactionOp[],
  wireOps: readonly WireTransactionOp[],
): void {
  ops.forEach((given, index) => {
    const wire = wireOps[index]!;
    const { path } = given;
    if (wire.type === 'create') {
      schemaSet.getSchema(path).validateCreate(wire.mode, path, wire.data, wire.acl);
    } else if (wire.type === 'delete') {
      schemaSet.getSchema(path).validateDelete(path);
    } else if (wire.type === 'setData') {
      schemaSet.getSchema(path).validateGeneral(path, wire.data, undefined);
    }
  });
}

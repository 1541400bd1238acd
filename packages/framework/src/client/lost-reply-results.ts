// What an idempotent write answers when an earlier attempt was applied and its reply lost: the
// server told us that it happened and its transaction's zxid (the witness's mzxid), not the
// reply's contents. They are found again from the server's state, by that zxid.
import { splitPath } from '../paths/zk-paths.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { isNoNode } from '../errors/predicates.js';
import { sequenceSuffix } from '../paths/sequence.js';
import type {
  CreateMode,
  Stat,
  WireTransactionOp,
  WireTransactionResult,
} from '../zk/zookeeper-types.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/** The applied attempt's transaction, as the witness recorded it. */
export interface AppliedEarlier {
  readonly zxid: bigint;
  readonly mtime: number;
}

/**
 * The Stat a setData produced: read again, with the write's own mzxid, mtime and (when it was
 * versioned) version in case another write came after it.
 */
export async function statAfterLostReply(
  ops: ZooKeeperOperations,
  path: string,
  earlier: AppliedEarlier,
  expectedVersion: number,
  signal: AbortSignal | undefined,
): Promise<Stat> {
  const read = await ops.exists(path, undefined, signal);
  if (read !== null && read.mzxid === earlier.zxid) return read;
  const base: Stat = read ?? {
    czxid: 0n,
    mzxid: 0n,
    pzxid: 0n,
    ctime: 0,
    mtime: 0,
    version: 0,
    cversion: 0,
    aversion: 0,
    ephemeralOwner: 0n,
    dataLength: 0,
    numChildren: 0,
  };
  return {
    ...base,
    mzxid: earlier.zxid,
    mtime: earlier.mtime,
    version: expectedVersion >= 0 ? expectedVersion + 1 : base.version,
  };
}

/**
 * The path a create made: the path given, or for a sequential create the child of the parent
 * whose czxid is the write's zxid. Sequence numbers grow with creation order, so the search
 * goes down from the newest and stops at an older node. A sequential node already deleted (a
 * queue item taken meanwhile) leaves its name unknown: OutcomeUnknownError says so.
 */
export async function createdPathAfterLostReply(
  ops: ZooKeeperOperations,
  sendPath: string,
  mode: CreateMode,
  earlier: AppliedEarlier,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (!mode.includes('SEQUENTIAL')) return sendPath;
  const { parent, name } = splitPath(sendPath);
  const { children } = await ops.getChildren(parent, undefined, signal);
  const candidates = children
    .map((child) => ({ child, sequence: sequenceSuffix(child, { prefix: name }) }))
    .filter((c): c is { child: string; sequence: number } => c.sequence !== undefined)
    .sort((a, b) => b.sequence - a.sequence);
  for (const { child } of candidates) {
    const path = parent === '/' ? `/${child}` : `${parent}/${child}`;
    let stat: Stat | null;
    try {
      stat = await ops.exists(path, undefined, signal);
    } catch (error) {
      if (isNoNode(error)) continue;
      throw error;
    }
    if (stat === null) continue;
    if (stat.czxid === earlier.zxid) return path;
    if (stat.czxid < earlier.zxid) break;
  }
  throw new OutcomeUnknownError({
    operation: 'create',
    path: sendPath,
    answer: undefined,
    detail:
      'create: the reply was lost; the create was applied, but its sequential node is already gone, so its name is unknown',
  });
}

/** A transaction's results: create paths found again, setData Stats read again. */
export async function transactionResultsAfterLostReply(
  ops: ZooKeeperOperations,
  wireOps: readonly WireTransactionOp[],
  earlier: AppliedEarlier,
  signal: AbortSignal | undefined,
): Promise<WireTransactionResult[]> {
  const results: WireTransactionResult[] = [];
  for (const op of wireOps) {
    switch (op.type) {
      case 'create':
        results.push({
          type: 'create',
          path: await createdPathAfterLostReply(ops, op.path, op.mode, earlier, signal),
        });
        break;
      case 'setData':
        results.push({
          type: 'setData',
          stat: await statAfterLostReply(ops, op.path, earlier, op.version, signal),
        });
        break;
      case 'delete':
        results.push({ type: 'delete' });
        break;
      case 'check':
        results.push({ type: 'check' });
        break;
    }
  }
  return results;
}

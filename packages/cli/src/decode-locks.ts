// Decoding Curator's lock family from raw nodes. Order and holder rules are Curator's own
// (the same `sortParticipants` the locks use), so what the CLI calls the holder is the node
// the processes themselves consider the holder.
import { LockName, lockSequence, sortParticipants } from '@zkrecipes/locks';
import type {
  InspectionBase,
  MutexInspection,
  ReadWriteLockInspection,
  ReadWriteParticipant,
  SemaphoreInspection,
} from './inspection.js';
import { nodeView, type NodeView } from './node-view.js';
import type { Znode } from './znode.js';

const RW_MARKERS = [LockName.READ, LockName.WRITE] as const;

/** The nodes named with one of `markers`, in lock order, and the names left out. */
function participants(
  nodes: readonly Znode[],
  markers: readonly string[],
): { sorted: Znode[]; ignored: string[] } {
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const order = sortParticipants([...byName.keys()], markers);
  const kept = new Set(order);
  return {
    sorted: order.map((name) => byName.get(name)!),
    ignored: nodes.map((node) => node.name).filter((name) => !kept.has(name)),
  };
}

/** Whether any child is a participant of a lock with these markers. */
export function hasLockNodes(names: readonly string[], markers: readonly string[]): boolean {
  return names.some((name) => lockSequence(name, markers) !== undefined);
}

/** Decodes `lock-` nodes: an InterProcessMutex or a LeaderSelector. */
export function decodeMutex(
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  nodes: readonly Znode[],
  now: number,
): MutexInspection {
  const { sorted, ignored } = participants(nodes, [LockName.MUTEX]);
  const views = sorted.map((node) => nodeView(node, now));
  return {
    ...base,
    kind: 'mutex',
    recipe: 'InterProcessMutex / LeaderSelector',
    ignored,
    holder: views[0],
    waiters: views.slice(1),
  };
}

/**
 * Decodes `__READ__` / `__WRIT__` nodes. A writer holds only when it is first; readers hold
 * while no writer is ahead of them; a reader with the holding writer's sequence is that
 * writer's downgrade (Curator 5.5+ naming) and holds too.
 */
export function decodeReadWriteLock(
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  nodes: readonly Znode[],
  now: number,
): ReadWriteLockInspection {
  const { sorted, ignored } = participants(nodes, RW_MARKERS);
  const views: ReadWriteParticipant[] = sorted.map((node) => ({
    ...nodeView(node, now),
    lock: node.name.includes(LockName.WRITE) ? 'write' : 'read',
  }));
  const firstWriter = views.findIndex((view) => view.lock === 'write');
  let holders: ReadWriteParticipant[];
  let mode: ReadWriteLockInspection['mode'];
  if (views.length === 0) {
    holders = [];
    mode = 'free';
  } else if (firstWriter === 0) {
    const writerSequence = lockSequence(views[0]!.name, RW_MARKERS);
    holders = views.filter(
      (view, index) =>
        index === 0 ||
        (view.lock === 'read' && lockSequence(view.name, RW_MARKERS) === writerSequence),
    );
    mode = 'write';
  } else {
    holders = firstWriter < 0 ? views : views.slice(0, firstWriter);
    mode = 'read';
  }
  const holding = new Set(holders);
  return {
    ...base,
    kind: 'read-write-lock',
    recipe: 'InterProcessReadWriteLock',
    ignored,
    mode,
    holders,
    waiters: views.filter((view) => !holding.has(view)),
  };
}

/** Decodes an InterProcessSemaphoreV2 from the children of its `leases` and `locks` nodes. */
export function decodeSemaphore(
  base: Omit<InspectionBase, 'recipe'>,
  leases: readonly Znode[],
  locks: readonly Znode[],
  now: number,
): SemaphoreInspection {
  const leaseNodes = participants(leases, [LockName.LEASE]);
  const lockNodes = participants(locks, [LockName.MUTEX]);
  const view = (node: Znode): NodeView => nodeView(node, now);
  return {
    ...base,
    kind: 'semaphore',
    recipe: 'InterProcessSemaphoreV2 / InterProcessSemaphoreMutex',
    ignored: [
      ...base.ignored,
      ...leaseNodes.ignored.map((name) => `leases/${name}`),
      ...lockNodes.ignored.map((name) => `locks/${name}`),
    ],
    leases: leaseNodes.sorted.map(view),
    acquiring: lockNodes.sorted.map(view),
  };
}

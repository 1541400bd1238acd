// What `inspect` finds under a path: one variant per recipe layout, discriminated by `kind`.
// This is also the `--json` output, so it holds only JSON types and its fields are stable.
import type { DataView, NodeView } from './node-view.js';

/** The fields every inspection has. */
export interface InspectionBase {
  /** The inspected path (as given, inside the connect string's chroot). */
  readonly path: string;
  /** Curator's class name(s) whose layout was recognised. */
  readonly recipe: string;
  /** When the nodes were read (ISO 8601, this machine's clock). */
  readonly inspectedAt: string;
  /** Children that are not part of the recognised layout (left out of the decode). */
  readonly ignored: readonly string[];
}

/**
 * An InterProcessMutex, InterProcessSemaphoreMutex's inner lock or a LeaderSelector (all are
 * `lock-` nodes): the first participant holds the lock (is the leader), the rest wait in order.
 * A LeaderSelector's node data is its participant id.
 */
export interface MutexInspection extends InspectionBase {
  /** Discriminates the mutex layout. */
  readonly kind: 'mutex';
  /** The holder (leader); its `ageMs` bounds how long it has held from above. */
  readonly holder: NodeView | undefined;
  /** Waiters in the order they will get the lock. */
  readonly waiters: readonly NodeView[];
}

/** A participant of a read/write lock. */
export interface ReadWriteParticipant extends NodeView {
  /** Which half of the lock the node belongs to. */
  readonly lock: 'read' | 'write';
}

/** An InterProcessReadWriteLock (`__READ__` / `__WRIT__` nodes). */
export interface ReadWriteLockInspection extends InspectionBase {
  /** Discriminates the read-write-lock layout. */
  readonly kind: 'read-write-lock';
  /** Who holds it now: one writer, or readers (and a writer that downgraded), or nobody. */
  readonly mode: 'write' | 'read' | 'free';
  /** The participants holding the lock, in lock order. */
  readonly holders: readonly ReadWriteParticipant[];
  /** The others, in lock order. */
  readonly waiters: readonly ReadWriteParticipant[];
}

/** An InterProcessSemaphoreV2 (`locks` and `leases` under the path). */
export interface SemaphoreInspection extends InspectionBase {
  /** Discriminates the semaphore layout. */
  readonly kind: 'semaphore';
  /**
   * Lease nodes in order. The first `maxLeases` hold a lease; maxLeases lives in the
   * processes, not in ZooKeeper, so a lease past it belongs to a process still waiting.
   */
  readonly leases: readonly NodeView[];
  /** Processes inside acquire (queued on the semaphore's internal `locks` mutex), in order. */
  readonly acquiring: readonly NodeView[];
}

/** A LeaderLatch (`latch-` nodes, participant id as data): the first participant leads. */
export interface LeaderLatchInspection extends InspectionBase {
  /** Discriminates the leader-latch layout. */
  readonly kind: 'leader-latch';
  /** The leader (the first participant); undefined when nobody takes part. */
  readonly leader: NodeView | undefined;
  /** Every participant in order, the leader first. */
  readonly participants: readonly NodeView[];
}

/** The oldest item of a queue, decoded. */
export interface QueueItemView extends DataView {
  /** The item node's name (`queue-0000000042`). */
  readonly name: string;
  /** Milliseconds since the item was put. */
  readonly ageMs: number;
  /** Items in the node: a DistributedQueue node may carry several (putMulti); else 1. */
  readonly items: number;
}

/** A DistributedQueue (`queue-` nodes, Curator's envelope) or SimpleDistributedQueue (`qn-`). */
export interface QueueInspection extends InspectionBase {
  /** Discriminates the queue layout. */
  readonly kind: 'queue';
  /** Item nodes waiting to be taken. */
  readonly depth: number;
  /** Sum of the item nodes' data sizes. */
  readonly bytes: number;
  /** The next item to be taken; undefined for an empty queue. */
  readonly oldest: QueueItemView | undefined;
}

/** A DistributedDoubleBarrier (member UUID nodes and `ready`). */
export interface DoubleBarrierInspection extends InspectionBase {
  /** Discriminates the double-barrier layout. */
  readonly kind: 'double-barrier';
  /** Members that entered, in Curator's order (the first leaves last). */
  readonly members: readonly NodeView[];
  /** Whether the barrier filled (`ready` exists): members may proceed. */
  readonly ready: boolean;
}

/** A member of a group. */
export interface GroupMemberView extends NodeView {
  /** The member id (the node name). */
  readonly id: string;
}

/** A GroupMember group (`<group>/<memberId>` ephemerals carrying payloads). */
export interface GroupInspection extends InspectionBase {
  /** Discriminates the group layout. */
  readonly kind: 'group';
  /** Members sorted by id; `data` is the payload. */
  readonly members: readonly GroupMemberView[];
}

/** A child in a plain listing. */
export interface TreeEntry extends NodeView {
  /** Its own number of children. */
  readonly numChildren: number;
  /** Its data size in bytes. */
  readonly dataLength: number;
}

/**
 * Nothing held: no recipe node under the path. It is how every recipe reads when nobody takes
 * part: a free lock or leader election, an empty queue, a group without members. A recipe makes
 * its path when first used and ZooKeeper removes an emptied container path after a while, so a
 * free lock's path may not exist at all (`exists: false`), which reads the same way.
 */
export interface EmptyInspection extends InspectionBase {
  /** Discriminates the empty layout. */
  readonly kind: 'empty';
  /** Whether there is a node at the path (with no children) or none at all. */
  readonly exists: boolean;
  /** The node itself, when it exists: its data and age. */
  readonly node: TreeEntry | undefined;
}

/** No recipe layout recognised: the node and its children as they are. */
export interface TreeInspection extends InspectionBase {
  /** Discriminates the tree layout. */
  readonly kind: 'tree';
  /** The inspected node itself, as `/`'s child would be shown. */
  readonly node: TreeEntry;
  /** Its children, sorted by name. */
  readonly children: readonly TreeEntry[];
}

/** Everything `inspect` can report. */
export type Inspection =
  | MutexInspection
  | ReadWriteLockInspection
  | SemaphoreInspection
  | LeaderLatchInspection
  | QueueInspection
  | DoubleBarrierInspection
  | GroupInspection
  | EmptyInspection
  | TreeInspection;

/** The `kind` values of {@link Inspection}. */
export type InspectionKind = Inspection['kind'];

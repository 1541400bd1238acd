// The watch requests node-zookeeper-client 1.1.3 lacks: addWatch (op 106, 3.6+: persistent
// and persistent recursive watches) and removeWatches (op 18). Both are `ustring path; int
// value` and both are answered with a bare reply header. And the event the server sends when a
// watch fires (xid -1).
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';

/** AddWatchMode on the wire. */
export const AddWatchMode = {
  /** Watches one node: created, deleted, data changed, children changed (0). */
  PERSISTENT: 0,
  /** Watches a node and every node below it: created, deleted, data changed (1). */
  PERSISTENT_RECURSIVE: 1,
} as const;

/** WatcherType of removeWatches: which of a path's watches go. */
export const WatcherType = {
  /** Child watches (1). */
  CHILDREN: 1,
  /** Data and exists watches (2). */
  DATA: 2,
  /** Every kind, persistent ones included (3). */
  ANY: 3,
} as const;

function pathAndInt(path: string, value: number): Buffer {
  return new JuteWriter(path.length * 3 + 8).string(path).int(value).toBuffer();
}

/** AddWatchRequest {ustring path, int mode}; `mode` is an {@link AddWatchMode} number. */
export function encodeAddWatch(path: string, mode: number): Buffer {
  return pathAndInt(path, mode);
}

/** RemoveWatchesRequest {ustring path, int type}; `type` is a {@link WatcherType} number. */
export function encodeRemoveWatches(path: string, watcherType: number): Buffer {
  return pathAndInt(path, watcherType);
}

/** A watch event as the server sends it (WatcherEvent), the path as the server names it. */
export interface WatcherEvent {
  /** The EventType number: 1 created, 2 deleted, 3 data changed, 4 children changed. */
  readonly type: number;
  /** The KeeperState number (3: SyncConnected). */
  readonly state: number;
  /** The node the event is about, chroot included. */
  readonly path: string;
}

/** WatcherEvent {int type, int state, ustring path}: a notification's body after its header. */
export function decodeWatcherEvent(body: Buffer): WatcherEvent {
  const reader = new JuteReader(body);
  const type = reader.int();
  const state = reader.int();
  return { type, state, path: reader.string() ?? '' };
}

// The two presence layouts: a DistributedDoubleBarrier (UUID-named member ephemerals and a
// `ready` node) and a GroupMember group (member-id-named ephemerals carrying payloads).
import type { DoubleBarrierInspection, GroupInspection, InspectionBase } from './inspection.js';
import { nodeView } from './node-view.js';
import type { Znode } from './znode.js';

/** Curator's double barrier "everyone is in" node. */
export const READY_NODE = 'ready';
// java.util.UUID.toString(), which is how Curator names barrier members.
const MEMBER_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether the children look like a double barrier: `ready`, or only UUID-named ephemerals. */
export function isDoubleBarrier(nodes: readonly Znode[]): boolean {
  if (nodes.some((node) => node.name === READY_NODE)) return true;
  return (
    nodes.length > 0 &&
    nodes.every((node) => MEMBER_NAME.test(node.name) && node.stat.ephemeralOwner !== 0n)
  );
}

/** Whether the children look like a group: only ephemerals without children of their own. */
export function isGroup(nodes: readonly Znode[]): boolean {
  return (
    nodes.length > 0 &&
    nodes.every((node) => node.stat.ephemeralOwner !== 0n && node.stat.numChildren === 0)
  );
}

/** Decodes a double barrier; members in Curator's order (plain string order of the UUIDs). */
export function decodeDoubleBarrier(
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  nodes: readonly Znode[],
  now: number,
): DoubleBarrierInspection {
  const members = nodes
    .filter((node) => MEMBER_NAME.test(node.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ...base,
    kind: 'double-barrier',
    recipe: 'DistributedDoubleBarrier',
    ignored: nodes
      .map((node) => node.name)
      .filter((name) => name !== READY_NODE && !MEMBER_NAME.test(name)),
    members: members.map((node) => nodeView(node, now)),
    ready: nodes.some((node) => node.name === READY_NODE),
  };
}

/** Decodes a group: members sorted by id, payload as data. */
export function decodeGroup(
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  nodes: readonly Znode[],
  now: number,
): GroupInspection {
  const members = [...nodes]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((node) => ({ id: node.name, ...nodeView(node, now) }));
  return { ...base, kind: 'group', recipe: 'GroupMember', ignored: [], members };
}

// The node names of a double barrier, shared by enter and leave: Curator names each member's
// node with a random UUID and signals "everyone is in" with a node called `ready`.

/** Curator's name for the node that tells waiting members the barrier is full. */
export const READY_NODE = 'ready';

// java.util.UUID.toString(): lowercase hex in 8-4-4-4-12 groups, as crypto.randomUUID() writes.
const MEMBER_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The member nodes among a barrier's children, in Curator's order (String.compareTo, which for
 * these ASCII names is plain code-unit order). `ready` and anything that is not a member's
 * UUID are left out: the barrier owns its path, and foreign nodes must not count as members.
 */
export function sortedMembers(children: readonly string[]): string[] {
  return children.filter((name) => MEMBER_NAME.test(name)).sort();
}

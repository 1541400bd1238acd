// @zkrecipes/group: explicit named exports only.
export { PersistentNode } from './persistent-node.js';
export type {
  PersistentNodeListener,
  PersistentNodeOptions,
  WaitForInitialCreateOptions,
} from './persistent-node.js';
export { GroupMember } from './group-member.js';
export type { GroupMemberOptions, GroupMembers, GroupMembersListener } from './group-member.js';
export { PersistentTtlNode } from './persistent-ttl-node.js';
export type { PersistentTtlNodeOptions } from './persistent-ttl-node.js';
export { SetPartitioner } from './set-partitioner.js';
export type { SetPartitionerOptions } from './set-partitioner-options.js';
export { SetPartitionerState } from './set-partitioner-state.js';
export { roundRobinPartitions } from './partition-function.js';
export type { PartitionFunction } from './partition-function.js';

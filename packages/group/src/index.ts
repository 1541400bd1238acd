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

// CreateMode's wire numbers (the `flags` int of a CreateRequest), under the names of
// ZooKeeper's CreateMode enum, which Curator and the framework use verbatim.

/** CreateMode name -> the `flags` a CreateRequest carries. */
export const CreateFlag = {
  /** A node that stays until it is deleted (0). */
  PERSISTENT: 0,
  /** A node the server deletes when the creating session ends (1). */
  EPHEMERAL: 1,
  /** A persistent node whose name gets a 10-digit sequence suffix (2). */
  PERSISTENT_SEQUENTIAL: 2,
  /** An ephemeral node whose name gets a 10-digit sequence suffix (3). */
  EPHEMERAL_SEQUENTIAL: 3,
  /** A container, deleted by the server once its last child is gone (4; op createContainer). */
  CONTAINER: 4,
  /** A persistent node with a time to live (5; op createTTL). */
  PERSISTENT_WITH_TTL: 5,
  /** A sequential persistent node with a time to live (6; op createTTL). */
  PERSISTENT_SEQUENTIAL_WITH_TTL: 6,
} as const;

/** A CreateMode name, e.g. `'EPHEMERAL_SEQUENTIAL'`. */
export type CreateModeName = keyof typeof CreateFlag;

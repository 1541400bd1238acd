// ACL permission bits (ZooDefs.Perms).

/** ZooKeeper permission bits. */
export const Perms = {
  /** Read the data and list the children (1). */
  READ: 1,
  /** Set the data (2). */
  WRITE: 2,
  /** Create children (4). */
  CREATE: 4,
  /** Delete children (8). */
  DELETE: 8,
  /** Set the ACL (16). */
  ADMIN: 16,
  /** All of the above (31). */
  ALL: 31,
} as const;

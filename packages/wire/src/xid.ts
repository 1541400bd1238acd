// Reserved xids: the numbers ZooKeeper's Java client (ClientCnxn) puts in a request header
// instead of a sequence number, and the ones the server uses to tag what was not asked for.

/** Reserved xids of the request and reply headers. */
export const Xid = {
  /** A watch event from the server (-1). */
  notification: -1,
  /** A ping and its reply (-2). */
  ping: -2,
  /** An AuthPacket and its reply (-4). */
  auth: -4,
  /** SetWatches after a reconnect (-8). */
  setWatches: -8,
} as const;

// ZooKeeper's request types (ZooDefs.OpCode), the int after the xid in every request header.
// Names are ZooKeeper's own, so a Java stack trace and a packet capture read the same.

/** Request types in RequestHeader.type, ZooKeeper 3.8's ZooDefs.OpCode. */
export const OpCode = {
  /** The placeholder of a watch event (0). */
  notification: 0,
  /** CreateRequest, answered with a CreateResponse (1). */
  create: 1,
  /** DeleteRequest (2). */
  delete: 2,
  /** ExistsRequest, answered with a Stat (3). */
  exists: 3,
  /** GetDataRequest (4). */
  getData: 4,
  /** SetDataRequest (5). */
  setData: 5,
  /** GetACLRequest (6). */
  getACL: 6,
  /** SetACLRequest (7). */
  setACL: 7,
  /** GetChildrenRequest (8). */
  getChildren: 8,
  /** SyncRequest: the server catches up with the leader before answering (9). */
  sync: 9,
  /** A heartbeat, sent with xid -2 (11). */
  ping: 11,
  /** GetChildren2Request: the children and the parent's Stat (12). */
  getChildren2: 12,
  /** CheckVersionRequest, only inside a multi (13). */
  check: 13,
  /** A transaction: all ops or none (14). */
  multi: 14,
  /** CreateRequest answered with the new node's Stat too (15, 3.5+). */
  create2: 15,
  /** ReconfigRequest (16). */
  reconfig: 16,
  /** CheckWatchesRequest (17). */
  checkWatches: 17,
  /** RemoveWatchesRequest (18). */
  removeWatches: 18,
  /** CreateRequest for a container node (19, 3.5.1+). */
  createContainer: 19,
  /** Deletes an empty container (20, the server's own). */
  deleteContainer: 20,
  /** CreateTTLRequest (21, 3.5.3+ with extended types enabled). */
  createTTL: 21,
  /** Several reads in one request, each answered on its own (22, 3.6+). */
  multiRead: 22,
  /** AuthPacket, sent with xid -4 (100). */
  auth: 100,
  /** SetWatches after a reconnect, sent with xid -8 (101). */
  setWatches: 101,
  /** A SASL token (102). */
  sasl: 102,
  /** GetEphemeralsRequest (103, 3.6+). */
  getEphemerals: 103,
  /** GetAllChildrenNumberRequest (104, 3.6+). */
  getAllChildrenNumber: 104,
  /** SetWatches2: SetWatches with persistent watches (105, 3.6+). */
  setWatches2: 105,
  /** AddWatchRequest: a persistent or persistent recursive watch (106, 3.6+). */
  addWatch: 106,
  /** WhoAmI (107, 3.7+). */
  whoAmI: 107,
  /** The server's own session creation (-10). */
  createSession: -10,
  /** Ends the session: its ephemeral nodes go at once (-11). */
  closeSession: -11,
  /** The type of a failed op's result inside a multi reply (-1). */
  error: -1,
} as const;

/** One of ZooKeeper's request type numbers. */
export type OpCode = (typeof OpCode)[keyof typeof OpCode];

// ZooKeeper's dynamic reconfiguration request (op 16, ZooKeeper 3.5+).
//
// Request: ReconfigRequest {ustring joiningServers; ustring leavingServers; ustring newMembers;
// long curConfigId}. An absent string is jute's null: the server tells an incremental change
// (joining and/or leaving) from a new member list by which strings are null.
// Reply: GetDataResponse {buffer data; Stat stat}: the new configuration as /zookeeper/config
// holds it (decodeGetData).
import { Buffer } from 'node:buffer';
import { JuteWriter } from './jute-writer.js';

/** What a reconfig asks for; each list is comma-separated, as ZooKeeper's own client sends it. */
export interface ReconfigRequest {
  /** `server.<id>=<host>:<quorumPort>:<electionPort>[:role];[<clientHost>:]<clientPort>`, ... */
  readonly joiningServers?: string | undefined;
  /** Server ids, e.g. `'2,3'`. */
  readonly leavingServers?: string | undefined;
  /** The whole new membership (non-incremental); excludes joining and leaving. */
  readonly newMembers?: string | undefined;
  /** The configuration version the change applies to; -1 for whatever is current. */
  readonly curConfigId: bigint;
}

/** The body of a reconfig request. */
export function encodeReconfig(request: ReconfigRequest): Buffer {
  const { joiningServers, leavingServers, newMembers, curConfigId } = request;
  const size = [joiningServers, leavingServers, newMembers].reduce(
    (total, text) => total + 4 + (text === undefined ? 0 : Buffer.byteLength(text)),
    8,
  );
  return new JuteWriter(size)
    .string(joiningServers)
    .string(leavingServers)
    .string(newMembers)
    .long(curConfigId)
    .toBuffer();
}

// ZooKeeper's multi (op 14), a transaction: every op applies or none does. Written here for
// transactions that hold a container or TTL create, which node-zookeeper-client's own multi
// encoder does not know.
//
// Request: for each op a MultiHeader {int type, bool done=false, int err=-1} and its record:
// create 1 / createContainer 19: CreateRequest; createTTL 21: CreateTTLRequest; delete 2:
// DeleteRequest {ustring path, int version}; setData 5: SetDataRequest {ustring path, buffer
// data, int version}; check 13: CheckVersionRequest {ustring path, int version}. Then
// MultiHeader {-1, true, -1}.
// Reply: for each op a MultiHeader and its result: create 1: CreateResponse {ustring path};
// create2 15 (what containers and TTL creates are answered with): Create2Response {ustring
// path, Stat}; delete 2 and check 13: nothing; setData 5: SetDataResponse {Stat}; error -1:
// ErrorResponse {int err} (a failed multi answers every op so). Then the done header.
import { writeAcls, type Acl } from './acl.js';
import { CreateFlag, type CreateModeName } from './create-flag.js';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode } from './op-code.js';
import { STAT_BYTES } from './stat.js';

/** One operation of a multi, paths as the caller names them. */
export type MultiOp =
  | {
      /** A create. */
      readonly type: 'create';
      /** The node to create (for a sequential mode, the prefix of its name). */
      readonly path: string;
      /** The new node's data. */
      readonly data: Buffer;
      /** The new node's ACL. */
      readonly acl: readonly Acl[];
      /** Persistent, ephemeral, sequential, container or TTL. */
      readonly mode: CreateModeName;
      /** The time to live of a TTL mode; ignored for every other mode. */
      readonly ttlMs?: number | undefined;
    }
  | {
      /** A delete. */
      readonly type: 'delete';
      /** The node to delete. */
      readonly path: string;
      /** The version the node must have; -1 for any. */
      readonly version: number;
    }
  | {
      /** A data write. */
      readonly type: 'setData';
      /** The node to write. */
      readonly path: string;
      /** The new data. */
      readonly data: Buffer;
      /** The version the node must have; -1 for any. */
      readonly version: number;
    }
  | {
      /** A version check, which writes nothing. */
      readonly type: 'check';
      /** The node to check. */
      readonly path: string;
      /** The version the node must have; -1 only for the node to exist. */
      readonly version: number;
    };

/** One op's answer: its raw result (path, raw Stat) or ZooKeeper's error code (0 for an op that would have succeeded). */
export type MultiOpResult =
  | {
      /** A create's answer. */
      readonly type: 'create';
      /** The path created (with its sequence number for a sequential mode). */
      readonly path: string;
    }
  | {
      /** A delete's or a check's answer: it succeeded, nothing more. */
      readonly type: 'delete' | 'check';
    }
  | {
      /** A data write's answer. */
      readonly type: 'setData';
      /** The node's Stat after the write, raw (see `decodeStat`). */
      readonly stat: Buffer;
    }
  | {
      /** An op that failed, or that would have succeeded in a multi that failed. */
      readonly type: 'error';
      /** ZooKeeper's error code; 0 for an op that would have succeeded. */
      readonly code: number;
    };

function header(writer: JuteWriter, type: number, done: boolean): JuteWriter {
  return writer.int(type).bool(done).int(-1);
}

/** The multi create op for `mode`: containers and TTL nodes need their own op codes. */
function multiCreateOp(mode: CreateModeName): number {
  if (mode === 'CONTAINER') return OpCode.createContainer;
  if (mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL') {
    return OpCode.createTTL;
  }
  return OpCode.create;
}

/** The request body (after the request header); `withChroot` maps each path for the server. */
export function encodeMulti(
  ops: readonly MultiOp[],
  withChroot: (path: string) => string = (path) => path,
): Buffer {
  const writer = new JuteWriter(256);
  for (const op of ops) {
    const path = withChroot(op.path);
    switch (op.type) {
      case 'create': {
        const type = multiCreateOp(op.mode);
        header(writer, type, false).string(path).buffer(op.data);
        writeAcls(writer, op.acl).int(CreateFlag[op.mode]);
        if (type === OpCode.createTTL) writer.long(op.ttlMs ?? 0);
        break;
      }
      case 'delete':
        header(writer, OpCode.delete, false).string(path).int(op.version);
        break;
      case 'setData':
        header(writer, OpCode.setData, false).string(path).buffer(op.data).int(op.version);
        break;
      case 'check':
        header(writer, OpCode.check, false).string(path).int(op.version);
        break;
    }
  }
  return header(writer, -1, true).toBuffer();
}

/** Decodes a multi reply body; throws on bytes that do not follow the format. */
export function decodeMulti(body: Buffer): MultiOpResult[] {
  const reader = new JuteReader(body);
  const results: MultiOpResult[] = [];
  for (;;) {
    const type = reader.int();
    const done = reader.bool();
    reader.int(); // err: the result record says it again
    if (done) return results;
    switch (type) {
      case OpCode.create:
        results.push({ type: 'create', path: reader.string() ?? '' });
        break;
      case OpCode.create2:
        results.push({ type: 'create', path: reader.string() ?? '' });
        reader.bytes(STAT_BYTES);
        break;
      case OpCode.delete:
        results.push({ type: 'delete' });
        break;
      case OpCode.check:
        results.push({ type: 'check' });
        break;
      case OpCode.setData:
        results.push({ type: 'setData', stat: reader.bytes(STAT_BYTES) });
        break;
      case OpCode.error:
        results.push({ type: 'error', code: reader.int() });
        break;
      default:
        throw new Error(`multi reply: unexpected op type ${type}`);
    }
  }
}

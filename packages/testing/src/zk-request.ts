// What the proxy reads of a request frame to decide whether it is the one to lose the reply
// of: the header, and the paths it touches. Only reading, never re-encoding: the frame itself
// is forwarded untouched.
import { JuteReader, OpCode } from '@zkrecipes/wire';

/** The parts of a request (after the handshake) a fault can match on. */
export interface ZkRequest {
  readonly xid: number;
  readonly opCode: number;
  /** The path when the op's record starts with one (create, delete, setData, getData, ...). */
  readonly path: string | undefined;
  /** Every path the request touches: `path`, or the paths of a multi's ops. */
  readonly paths: readonly string[];
}

/** Ops whose record's first field is the path (ZooKeeper 3.8's request records). */
const PATH_FIRST: ReadonlySet<number> = new Set([
  OpCode.create,
  OpCode.delete,
  OpCode.exists,
  OpCode.getData,
  OpCode.setData,
  OpCode.getACL,
  OpCode.setACL,
  OpCode.getChildren,
  OpCode.sync,
  OpCode.getChildren2,
  OpCode.check,
  OpCode.create2,
  OpCode.checkWatches,
  OpCode.removeWatches,
  OpCode.createContainer,
  OpCode.deleteContainer,
  OpCode.createTTL,
  OpCode.getEphemerals,
  OpCode.getAllChildrenNumber,
  OpCode.addWatch,
]);

/** Reads a request body (length prefix removed); undefined when it is too short for a header. */
export function readZkRequest(body: Buffer): ZkRequest | undefined {
  if (body.length < 8) return undefined;
  const reader = new JuteReader(body);
  const xid = reader.int();
  const opCode = reader.int();
  let path: string | undefined;
  let paths: string[] = [];
  // A record cut short or of an unknown shape leaves the paths empty: only a pathPrefix
  // match can miss it, and a request the server rejects is no worse for it.
  try {
    if (PATH_FIRST.has(opCode)) {
      path = reader.string();
      if (path !== undefined) paths = [path];
    } else if (opCode === OpCode.multi || opCode === OpCode.multiRead) {
      paths = readMultiPaths(reader);
    }
  } catch {
    // Keep what was read.
  }
  return { xid, opCode, path, paths };
}

/** The path of each op of a MultiTransactionRecord / MultiReadRecord. */
function readMultiPaths(reader: JuteReader): string[] {
  const paths: string[] = [];
  for (;;) {
    const type = reader.int(); // MultiHeader {type, done, err}
    const done = reader.bool();
    reader.int();
    if (done) return paths;
    paths.push(reader.string() ?? '');
    skipMultiOpRest(reader, type);
  }
}

/** Skips the rest of one op's record, after its path. */
function skipMultiOpRest(reader: JuteReader, type: number): void {
  switch (type) {
    case OpCode.create:
    case OpCode.create2:
    case OpCode.createContainer:
    case OpCode.createTTL:
      reader.buffer();
      skipAcls(reader);
      reader.int(); // flags
      if (type === OpCode.createTTL) reader.long();
      return;
    case OpCode.setData:
      reader.buffer();
      reader.int(); // version
      return;
    case OpCode.delete:
    case OpCode.check:
      reader.int(); // version
      return;
    case OpCode.getData:
    case OpCode.getChildren:
      reader.bool(); // watch
      return;
    default:
      throw new Error(`unknown multi op ${type}`);
  }
}

function skipAcls(reader: JuteReader): void {
  const count = reader.int();
  for (let i = 0; i < count; i++) {
    reader.int(); // perms
    reader.string(); // scheme
    reader.string(); // id
  }
}

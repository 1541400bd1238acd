// @zkrecipes/wire: ZooKeeper's wire protocol, encoded once for the framework's facade and the
// testing package's raw client. Explicit named exports only.

// Jute and framing
export { JuteWriter } from './jute-writer.js';
export { JuteReader } from './jute-reader.js';
export { FrameDecoder } from './frame-decoder.js';
export { encodeRequest } from './request-frame.js';
export { corkUntilNextMicrotask } from './write-batch.js';
export { readReplyHeader } from './reply-header.js';
export type { ReplyHeader } from './reply-header.js';
export { decodeConnectResponse, encodeConnectRequest } from './connect-codec.js';
export type { ConnectRequest, ConnectResponse } from './connect-codec.js';

// Numbers
export { readInt32, readInt64, readInt64AsNumber, writeInt32 } from './big-endian.js';
export { OpCode } from './op-code.js';
export { Xid } from './xid.js';
export { CreateFlag } from './create-flag.js';
export type { CreateModeName } from './create-flag.js';
export { Perms } from './perms.js';
export { codeName, ZooKeeperErrorCode } from './error-code.js';
export type { ZooKeeperWireCodeName } from './error-code.js';

// Records
export { readAcls, writeAcls } from './acl.js';
export type { Acl } from './acl.js';
export { decodeStat, STAT_BYTES } from './stat.js';
export type { Stat } from './stat.js';

// Request and reply codecs
export { decodeGetAcl, encodeSetAcl } from './acl-codec.js';
export { create2OpCode, decodeCreate, decodeCreate2, encodeCreate2 } from './create-codec.js';
export { encodeDelete } from './delete-codec.js';
export { decodeMulti, encodeMulti } from './multi-codec.js';
export type { MultiOp, MultiOpResult } from './multi-codec.js';
export { decodeMultiRead, encodeMultiRead } from './multi-read-codec.js';
export type { MultiReadResult } from './multi-read-codec.js';
export {
  AddWatchMode,
  decodeWatcherEvent,
  encodeAddWatch,
  encodeRemoveWatches,
  WatcherType,
} from './watch-codec.js';
export type { WatcherEvent } from './watch-codec.js';
export { decodeInt, decodeStrings, encodePath } from './path-request-codec.js';
export { decodeGetChildren2, decodeGetData, encodePathWatch, encodeSetData } from './read-codec.js';
export { decodeSaslResponse, encodeSaslRequest } from './sasl-codec.js';
export { encodeReconfig } from './reconfig-codec.js';
export type { ReconfigRequest } from './reconfig-codec.js';

/**
 * ZooKeeper's multi (op 14) written by the framework, for transactions that hold a container or
 * TTL create: nzc's own multi encoder knows the classic create only (the adapter sends every
 * other transaction through nzc). The reply body is taken off the socket before nzc sees it
 * (nzc-reply-tap.ts).
 *
 * Request: for each op a MultiHeader {int type, bool done=false, int err=-1} and its request
 * record: create 1 / createContainer 19: CreateRequest; createTTL 21: CreateTTLRequest;
 * delete 2: DeleteRequest {ustring path, int version}; setData 5: SetDataRequest {ustring path,
 * buffer data, int version}; check 13: CheckVersionRequest {ustring path, int version}. Then
 * MultiHeader {-1, true, -1}.
 * Reply: for each op a MultiHeader and its result: create 1: CreateResponse {ustring path};
 * create2 15 (what containers and TTL creates are answered with): Create2Response {ustring
 * path, Stat}; delete 2 and check 13: nothing; setData 5: SetDataResponse {Stat}; error -1:
 * ErrorResponse {int err} (a failed multi answers every op so). Then the done header.
 */
import { encodeCreate2, OP_CREATE_CONTAINER, OP_CREATE_TTL } from './create2-codec.js';
import { statFromBytes } from './stat-bytes.js';
import type { CreateMode, WireTransactionOp, WireTransactionResult } from './zookeeper-types.js';

export const OP_MULTI = 14;
const OP = { create: 1, delete: 2, setData: 5, check: 13, create2: 15, error: -1 } as const;
const MULTI_HEADER_BYTES = 9;
const STAT_BYTES = 68;

/** CreateMode's wire numbers (the `flags` of a create). */
export const CREATE_FLAGS: Readonly<Record<CreateMode, number>> = {
  PERSISTENT: 0,
  EPHEMERAL: 1,
  PERSISTENT_SEQUENTIAL: 2,
  EPHEMERAL_SEQUENTIAL: 3,
  CONTAINER: 4,
  PERSISTENT_WITH_TTL: 5,
  PERSISTENT_SEQUENTIAL_WITH_TTL: 6,
};

/** One op's answer: its raw result (path, raw Stat) or ZooKeeper's error code (0 for an op that would have succeeded). */
export type MultiOpResult =
  | { readonly type: 'create'; readonly path: string }
  | { readonly type: 'delete' | 'check' }
  | { readonly type: 'setData'; readonly stat: Buffer }
  | { readonly type: 'error'; readonly code: number };

function header(type: number, done: boolean): Buffer {
  const buffer = Buffer.alloc(MULTI_HEADER_BYTES);
  buffer.writeInt32BE(type, 0);
  buffer.writeUInt8(done ? 1 : 0, 4);
  buffer.writeInt32BE(-1, 5);
  return buffer;
}

function pathThen(path: string, parts: readonly Buffer[]): Buffer {
  const pathBytes = Buffer.from(path, 'utf8');
  const length = Buffer.alloc(4);
  length.writeInt32BE(pathBytes.length);
  return Buffer.concat([length, pathBytes, ...parts]);
}

function int(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

/** The request body (after the request header); `withChroot` maps each path for the server. */
export function encodeMulti(
  ops: readonly WireTransactionOp[],
  withChroot: (path: string) => string,
): Buffer {
  const parts: Buffer[] = [];
  for (const op of ops) {
    const path = withChroot(op.path);
    switch (op.type) {
      case 'create': {
        const type =
          op.mode === 'CONTAINER'
            ? OP_CREATE_CONTAINER
            : op.mode.endsWith('WITH_TTL')
              ? OP_CREATE_TTL
              : OP.create;
        const ttlMs = type === OP_CREATE_TTL ? op.ttlMs : undefined;
        parts.push(
          header(type, false),
          encodeCreate2(path, op.data, op.acl, CREATE_FLAGS[op.mode], ttlMs),
        );
        break;
      }
      case 'delete':
        parts.push(header(OP.delete, false), pathThen(path, [int(op.version)]));
        break;
      case 'setData':
        parts.push(
          header(OP.setData, false),
          pathThen(path, [int(op.data.length), op.data, int(op.version)]),
        );
        break;
      case 'check':
        parts.push(header(OP.check, false), pathThen(path, [int(op.version)]));
        break;
    }
  }
  parts.push(header(-1, true));
  return Buffer.concat(parts);
}

/** Decodes a multi reply body; throws on bytes that do not follow the format. */
export function decodeMulti(body: Buffer): MultiOpResult[] {
  const results: MultiOpResult[] = [];
  let offset = 0;
  const need = (bytes: number): void => {
    if (offset + bytes > body.length) throw new Error('multi reply cut short');
  };
  const readString = (): string => {
    need(4);
    const length = Math.max(body.readInt32BE(offset), 0);
    offset += 4;
    need(length);
    const value = body.toString('utf8', offset, offset + length);
    offset += length;
    return value;
  };
  for (;;) {
    need(MULTI_HEADER_BYTES);
    const type = body.readInt32BE(offset);
    const done = body.readUInt8(offset + 4) !== 0;
    offset += MULTI_HEADER_BYTES;
    if (done) return results;
    switch (type) {
      case OP.create:
        results.push({ type: 'create', path: readString() });
        break;
      case OP.create2:
        results.push({ type: 'create', path: readString() });
        need(STAT_BYTES);
        offset += STAT_BYTES;
        break;
      case OP.delete:
        results.push({ type: 'delete' });
        break;
      case OP.check:
        results.push({ type: 'check' });
        break;
      case OP.setData:
        need(STAT_BYTES);
        results.push({
          type: 'setData',
          stat: Buffer.from(body.subarray(offset, offset + STAT_BYTES)),
        });
        offset += STAT_BYTES;
        break;
      case OP.error:
        need(4);
        results.push({ type: 'error', code: body.readInt32BE(offset) });
        offset += 4;
        break;
      default:
        throw new Error(`multi reply: unexpected op type ${type}`);
    }
  }
}

/**
 * The transaction's results, paths as the client names them (`withoutChroot`), or each op's
 * error code (0 for the ops that would have succeeded) when the multi failed.
 */
export function toWireResults(
  results: readonly MultiOpResult[],
  ops: readonly WireTransactionOp[],
  withoutChroot: (path: string) => string,
): { results: WireTransactionResult[] } | { failed: number[] } {
  if (results.some((r) => r.type === 'error' && r.code !== 0)) {
    return { failed: results.map((r) => (r.type === 'error' ? r.code : 0)) };
  }
  return {
    results: results.map((result, i): WireTransactionResult => {
      if (result.type === 'create') return { type: 'create', path: withoutChroot(result.path) };
      if (result.type === 'setData') return { type: 'setData', stat: statFromBytes(result.stat) };
      return ops[i]?.type === 'delete' ? { type: 'delete' } : { type: 'check' };
    }),
  };
}

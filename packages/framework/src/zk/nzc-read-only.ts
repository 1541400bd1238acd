/**
 * Read-only mode on one nzc client (`canBeReadOnly`), by per-instance overrides only (see
 * docs/architecture.md, "The node-zookeeper-client facade"). nzc writes a ConnectRequest without
 * the trailing `readOnly` bool and reads the ConnectResponse without the server's own, so on its
 * own it is never let in by a read-only server and could not tell one if it were.
 *
 * - The handshake nzc writes as its socket connects is replaced by ours (@zkrecipes/wire's
 *   encoding, the same fields plus `readOnly: true`). Like ZooKeeper's own client, a client that
 *   has not yet been connected to a read-write server asks for a new session every time: the
 *   session a read-only server opens is local to it and means nothing to any other server.
 * - The handshake reply is read before nzc reads it, for the server's `readOnly` flag. A
 *   read-only server without local sessions answers with a bare NOT_READ_ONLY reply header
 *   instead of a ConnectResponse; nzc would misread it, so that connection is ended here.
 */
import { Buffer } from 'node:buffer';
import { decodeConnectResponse, encodeConnectRequest, type ConnectResponse } from '@zkrecipes/wire';
import type { NzcConnectionManager } from './nzc-types.js';

/** What the handshake override asks of its handle. */
export interface ReadOnlyHandshakeOptions {
  /** True once this handle has been connected to a read-write server (its session is global). */
  readonly seenReadWrite: () => boolean;
}

/** Replaces the ConnectRequest nzc writes with one that accepts a read-only server. */
export function sendReadOnlyHandshakes(
  manager: NzcConnectionManager,
  options: ReadOnlyHandshakeOptions,
): void {
  const onSocketConnected = manager.onSocketConnected.bind(manager);
  manager.onSocketConnected = (): void => {
    const socket = manager.socket;
    if (socket === undefined) {
      onSocketConnected();
      return;
    }
    // nzc writes the handshake first, synchronously: that one write is swapped for ours. The
    // override is an own property of this socket, removed (or the old one put back) after.
    const own = Object.getOwnPropertyDescriptor(socket, 'write');
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    let swapped = false;
    socket.write = (chunk: unknown, ...rest: unknown[]): boolean => {
      const first = !swapped;
      swapped = true;
      return write(first ? handshake(manager, options.seenReadWrite()) : chunk, ...rest);
    };
    try {
      onSocketConnected();
    } finally {
      if (own) Object.defineProperty(socket, 'write', own);
      else delete (socket as { write?: unknown }).write;
    }
  };
}

function handshake(manager: NzcConnectionManager, resume: boolean): Buffer {
  return encodeConnectRequest({
    lastZxidSeen: manager.zxid.readBigInt64BE(0),
    sessionTimeoutMs: manager.sessionTimeout,
    sessionId: resume ? manager.sessionId.readBigInt64BE(0) : 0n,
    password: resume ? manager.sessionPassword : Buffer.alloc(16),
    readOnly: true,
  });
}

/**
 * The handshake reply's payload (length prefix removed), decoded; undefined when it is not a
 * ConnectResponse (a read-only server without local sessions sends a reply header instead).
 */
export function readHandshakeReply(payload: Buffer): ConnectResponse | undefined {
  // protocolVersion, timeOut, sessionId, the password's length: a reply header is 16 bytes.
  if (payload.length < 20) return undefined;
  try {
    return decodeConnectResponse(payload);
  } catch {
    return undefined;
  }
}

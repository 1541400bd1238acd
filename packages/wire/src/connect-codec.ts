// Opening a session: the first frame each way, without a request header.
// ConnectRequest {int protocolVersion, long lastZxidSeen, int timeOut, long sessionId,
// buffer passwd} plus the trailing bool readOnly that 3.4+ servers read;
// ConnectResponse {int protocolVersion, int timeOut, long sessionId, buffer passwd} and
// the server's own readOnly bool, which older servers leave out.
import { Buffer } from 'node:buffer';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';

/** What a client asks for when it opens (or re-attaches to) a session. */
export interface ConnectRequest {
  /** The highest zxid the client has seen; 0 never makes a server refuse it as behind. */
  readonly lastZxidSeen: bigint;
  /** The requested session timeout; the server clamps it. */
  readonly sessionTimeoutMs: number;
  /** 0n for a new session. */
  readonly sessionId: bigint;
  /** 16 zero bytes for a new session, as the Java client sends. */
  readonly password: Buffer;
  /** Whether a read-only server may accept the session. */
  readonly readOnly: boolean;
}

/** What the server granted. A timeout of 0 or less means the session is gone (expired). */
export interface ConnectResponse {
  /** The negotiated session timeout. */
  readonly sessionTimeoutMs: number;
  /** The session id; 0n when the requested session no longer exists. */
  readonly sessionId: bigint;
  /** The session password. */
  readonly password: Buffer;
  /** Whether the server is read-only (false when it did not say). */
  readonly readOnly: boolean;
}

/** The framed ConnectRequest, ready for the socket. */
export function encodeConnectRequest(request: ConnectRequest): Buffer {
  return new JuteWriter()
    .int(0) // protocolVersion
    .long(request.lastZxidSeen)
    .int(request.sessionTimeoutMs)
    .long(request.sessionId)
    .buffer(request.password)
    .bool(request.readOnly)
    .frame();
}

/** Decodes a ConnectResponse payload (length prefix removed). */
export function decodeConnectResponse(payload: Buffer): ConnectResponse {
  const reader = new JuteReader(payload);
  reader.int(); // protocolVersion
  const sessionTimeoutMs = reader.int();
  const sessionId = reader.long();
  const password = reader.buffer() ?? Buffer.alloc(0);
  const readOnly = reader.remaining > 0 ? reader.bool() : false;
  return { sessionTimeoutMs, sessionId, password, readOnly };
}

// What it takes to act as a session: its id and password. killSession accepts either the
// credentials or anything that can report them (the framework client, a raw session), so
// tests need not dig into a client's internals.

/** A ZooKeeper session's identity, as the server handed it out at connect. */
export interface SessionCredentials {
  /** The 64-bit session id. */
  sessionId: bigint;
  /** The session password the server generated. */
  password: Buffer;
}

/** Anything that owns a session; `undefined` while it has none (not yet connected). */
export interface SessionOwner {
  /** The current session's id and password; undefined while there is none. */
  sessionCredentials(): SessionCredentials | undefined;
}

/** `0x…` as ZooKeeper prints session ids in logs and four-letter words. */
export function sessionIdHex(sessionId: bigint): string {
  return `0x${BigInt.asUintN(64, sessionId).toString(16)}`;
}

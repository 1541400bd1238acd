// Shared by the group tests.

/** The session id as ZooKeeper's tools print it. */
export function hex(sessionId: bigint | undefined): string {
  return `0x${(sessionId ?? 0n).toString(16)}`;
}

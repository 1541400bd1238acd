import type { FrameworkClient } from '../client/framework-client.js';
import { connectionStreamOf } from './connection-stream-of.js';

/**
 * What a recipe call with a time limit awaits before it starts counting: the client's first
 * connection (at most connectionTimeoutMs; see ConnectionStream.firstConnection), so that
 * `acquire(0)` right after `start()` answers about the lock, not about the handshake.
 * Undefined (nothing to await, no tick spent) once the client has been connected.
 */
export function untilFirstConnection(
  client: FrameworkClient,
  signal: AbortSignal | undefined,
): Promise<void> | undefined {
  const stream = connectionStreamOf(client);
  return stream.wasConnected ? undefined : stream.firstConnection(signal);
}

import type { FrameworkClient } from '../client/framework-client.js';
import { ClosedError, IllegalStateError } from '../errors/zookeeper-error-classes.js';

/**
 * Throws what every operation of `client` throws when it cannot run: ClosedError once the
 * client is closed, IllegalStateError before its start(). For a recipe call that can answer
 * without a request (`acquire(0)` while not connected answers "not had"), so it rejects where
 * every other call does instead of answering about a client that was never usable.
 */
export function assertClientStarted(client: FrameworkClient, path: string): void {
  if (client.state === 'STOPPED') throw new ClosedError({ path });
  if (client.state === 'LATENT') {
    throw new IllegalStateError('the client is not started: call start() first', { path });
  }
}

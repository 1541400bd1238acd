// The client of the caches, discovery and group tests: a short session, so that a session
// expiry comes quickly, and retries that ride out a server restart.
import { RetryNTimes, type FrameworkClient, type FrameworkOptions } from '@zkrecipes/framework';
import { connectedClient } from './connected-client.js';

/**
 * A started, connected client with a 4 s session and RetryNTimes(20, 100 ms); `options`
 * override any of them (see {@link connectedClient} for the rest).
 */
export function startClient(
  connectString: string,
  options: Partial<FrameworkOptions> = {},
): Promise<FrameworkClient> {
  return connectedClient(connectString, {
    sessionTimeoutMs: 4000,
    retryPolicy: new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 100 }),
    ...options,
  });
}

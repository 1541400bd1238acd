// The client of the atomic, barriers and queues tests: the framework's own session and
// connection timeouts, and an exponential backoff from 50 ms.
import {
  ExponentialBackoffRetry,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';
import { connectedClient } from './connected-client.js';

/**
 * A started, connected client with createFramework's default session (60 s) and connection
 * (15 s) timeouts and ExponentialBackoffRetry(50 ms, 5 retries); `options` override any of them.
 */
export function connect(
  connectString: string,
  options: Partial<FrameworkOptions> = {},
): Promise<FrameworkClient> {
  return connectedClient(connectString, {
    // undefined leaves createFramework's defaults in place of connectedClient's.
    sessionTimeoutMs: undefined,
    connectionTimeoutMs: undefined,
    retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 50, maxRetries: 5 }),
    ...options,
  });
}

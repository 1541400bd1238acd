// The client most tests want: started and connected, or the test fails right there with a
// clear message instead of at its first operation. startClient and connect are this helper
// with the defaults their packages' tests were written against.
import type { FrameworkClient } from '@zkrecipes/framework';
import { timing } from '@zkrecipes/testing';
import {
  connectStringOf,
  startedClient,
  type ClientOptions,
  type ClientTarget,
} from './started-client.js';

/**
 * A started client, connected within 10 s (scaled), with {@link startedClient}'s defaults (a
 * 30 s session, RetryNTimes(5, 50 ms), no log output); `options` override any of them. When it
 * does not connect in time it is closed and this rejects. The caller closes it.
 */
export async function connectedClient(
  target: ClientTarget,
  options: ClientOptions = {},
): Promise<FrameworkClient> {
  const client = await startedClient(target, options);
  if (!(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }))) {
    await client.close();
    throw new Error(`could not connect to ${connectStringOf(target, options)}`);
  }
  return client;
}

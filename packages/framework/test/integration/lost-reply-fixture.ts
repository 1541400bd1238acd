// The setting of the lost-reply tests: a server, a FaultProxy in front of it, a client through
// the proxy (a session that outlives the proxy's resets, quick retries) and an observer that
// reads the server directly.
import { after, before } from 'node:test';
import { inspect } from 'node:util';
import { FaultProxy, TestingServer, timing } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';

/** What a lost-reply test reads and writes through; set once the suite's `before` ran. */
export interface LostReplyFixture {
  server: TestingServer;
  proxy: FaultProxy;
  /** Connected to the server directly: its writes and reads never lose a reply. */
  observer: FrameworkClient;
  /** Connected through the proxy. */
  client: FrameworkClient;
  /**
   * Runs `write` with the reply of the next request matching `ops` on `pathPrefix` (after
   * `skip` of them) lost; settles with the write's outcome and the lost reply's error code
   * (0: applied).
   */
  withLostReply<T>(
    ops: readonly string[],
    pathPrefix: string,
    write: () => Promise<T>,
    skip?: number,
  ): Promise<{ result: PromiseSettledResult<T>; err: number }>;
}

/** Registers the suite's before/after hooks (call it inside `describe`). */
export function lostReplyFixture(): LostReplyFixture {
  const fixture = {
    async withLostReply<T>(
      ops: readonly string[],
      pathPrefix: string,
      write: () => Promise<T>,
      skip = 0,
    ) {
      const lost = fixture.proxy.loseReply({ ops, pathPrefix, skip });
      const [result] = await Promise.allSettled([write()]);
      return { result, err: (await lost).err };
    },
  } as LostReplyFixture;
  before(async () => {
    fixture.server = await TestingServer.start();
    fixture.proxy = await FaultProxy.start({ targetPort: fixture.server.port });
    fixture.observer = createFramework({
      connectString: fixture.server.connectString,
      logger: silentLogger,
    });
    fixture.client = createFramework({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 20, maxRetries: 10 }),
      logger: silentLogger,
    });
    await Promise.all([
      fixture.observer.start({ timeoutMs: timing.ms(10_000) }),
      fixture.client.start({ timeoutMs: timing.ms(10_000) }),
    ]);
  });
  after(async () => {
    await fixture.client.close();
    await fixture.observer.close();
    await fixture.proxy.close();
    await fixture.server.close();
  });
  return fixture;
}

/** The reason of a rejected outcome (fails the test on a fulfilled one). */
export function rejection(result: PromiseSettledResult<unknown>): unknown {
  if (result.status === 'fulfilled')
    throw new Error(`expected a rejection, got ${inspect(result.value)}`);
  return result.reason;
}

/** The value of a fulfilled outcome (fails the test on a rejected one, with its reason). */
export function fulfilment<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected')
    throw new Error(`expected success, got ${String(result.reason)}`);
  return result.value;
}

// The one way the tests open a client: started, connected within a scaled deadline, quiet.
// startClient and connect are the same helper with the defaults their packages' tests were
// written against; the defaults here are those of the cli, leader and locks tests.
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';
import { timing } from '@zkrecipes/testing';

/** Framework options, all optional (connectString overrides the target's), plus a shorthand. */
export interface ClientOptions extends Partial<FrameworkOptions> {
  /** Retries of the default policy (RetryNTimes, 50 ms apart). Default 5. */
  readonly retries?: number;
}

/** What to connect to: a connect string, or anything with one (TestingServer, TestingCluster). */
export type ClientTarget = string | { readonly connectString: string };

/**
 * A started client that the caller closes. Defaults: a 30 s session, a 10 s connection
 * timeout, RetryNTimes(5, 50 ms) and no log output; `options` override any of them. Fails,
 * after closing the client, when it is not connected within 10 s (scaled).
 */
export async function connectedClient(
  target: ClientTarget,
  options: ClientOptions = {},
): Promise<FrameworkClient> {
  const { retries = 5, ...frameworkOptions } = options;
  const connectString = frameworkOptions.connectString ?? connectStringOf(target);
  const client = createFramework({
    connectString,
    sessionTimeoutMs: 30_000,
    connectionTimeoutMs: 10_000,
    retryPolicy: new RetryNTimes({ n: retries, sleepBetweenRetriesMs: 50 }),
    logger: silentLogger,
    ...frameworkOptions,
  });
  await client.start();
  if (!(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }))) {
    await client.close();
    throw new Error(`could not connect to ${connectString}`);
  }
  return client;
}

function connectStringOf(target: ClientTarget): string {
  return typeof target === 'string' ? target : target.connectString;
}

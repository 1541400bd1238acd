// The one place the tests' clients are created: every other client helper starts from here,
// so their defaults cannot drift apart.
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';

/** Framework options, all optional (connectString overrides the target's), plus a shorthand. */
export interface ClientOptions extends Partial<FrameworkOptions> {
  /** Retries of the default policy (RetryNTimes, 50 ms apart). Default 5. */
  readonly retries?: number;
}

/** What to connect to: a connect string, or anything with one (TestingServer, TestingCluster). */
export type ClientTarget = string | { readonly connectString: string };

/**
 * A started client that is not waited for, for tests where nothing may answer. Defaults: a
 * 30 s session, a 10 s connection timeout, RetryNTimes(5, 50 ms) and no log output; `options`
 * override any of them. The caller closes it.
 */
export async function startedClient(
  target: ClientTarget,
  options: ClientOptions = {},
): Promise<FrameworkClient> {
  const { retries = 5, ...frameworkOptions } = options;
  const client = createFramework({
    connectString: connectStringOf(target, options),
    sessionTimeoutMs: 30_000,
    connectionTimeoutMs: 10_000,
    retryPolicy: new RetryNTimes({ n: retries, sleepBetweenRetriesMs: 50 }),
    logger: silentLogger,
    ...frameworkOptions,
  });
  await client.start();
  return client;
}

/** The connect string a client made from `target` and `options` uses. */
export function connectStringOf(target: ClientTarget, options: ClientOptions = {}): string {
  return options.connectString ?? (typeof target === 'string' ? target : target.connectString);
}

// Shared by the group tests: clients with short timeouts and quiet logs.
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';

/** A started, connected client with a short session and a retry policy that rides out a restart. */
export async function startClient(
  connectString: string,
  options: Partial<FrameworkOptions> = {},
): Promise<FrameworkClient> {
  const client = createFramework({
    connectString,
    sessionTimeoutMs: 4000,
    connectionTimeoutMs: 10_000,
    retryPolicy: new RetryNTimes({ n: 20, sleepBetweenRetriesMs: 100 }),
    logger: silentLogger,
    ...options,
  });
  await client.start();
  await client.blockUntilConnected({ timeoutMs: 10_000 });
  return client;
}

/** The session id as ZooKeeper's tools print it. */
export function hex(sessionId: bigint | undefined): string {
  return `0x${(sessionId ?? 0n).toString(16)}`;
}

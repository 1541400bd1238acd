// Test helper: a started, connected client that the caller closes.
import {
  createFramework,
  ExponentialBackoffRetry,
  silentLogger,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';
import { timing } from '@zkrecipes/testing';

export async function connect(
  connectString: string,
  options: Partial<FrameworkOptions> = {},
): Promise<FrameworkClient> {
  const client = createFramework({
    connectString,
    logger: silentLogger,
    retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 50, maxRetries: 5 }),
    ...options,
  });
  await client.start();
  if (!(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }))) {
    await client.close();
    throw new Error(`could not connect to ${connectString}`);
  }
  return client;
}

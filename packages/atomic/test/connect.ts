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

/** Milliseconds `call` took to settle, and its rejection if any. */
export async function timed(
  call: () => Promise<unknown>,
): Promise<{ ms: number; error?: unknown }> {
  const started = performance.now();
  try {
    await call();
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

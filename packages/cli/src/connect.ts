// Connecting for a one-shot look: a short connection timeout, few retries and no logging (the
// CLI reports failures itself, once, with the hosts it tried), and no session-loss machinery
// beyond what the framework does anyway.
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import type { CliOptions } from './cli-options.js';
import { CliError, ExitCode } from './exit-code.js';

/** The hosts of a connect string, for error messages (`a:1,b:2/chroot` -> `a:1, b:2`). */
export function hostsOf(connect: string): string {
  const slash = connect.indexOf('/');
  return (slash < 0 ? connect : connect.slice(0, slash)).split(',').join(', ');
}

/**
 * A started client, connected within `options.timeoutMs`, or a CliError with
 * {@link ExitCode.CONNECTION} naming the hosts tried (a malformed connect string is
 * {@link ExitCode.USAGE}).
 */
export async function connect(
  options: Pick<CliOptions, 'connect' | 'digest' | 'timeoutMs'>,
): Promise<FrameworkClient> {
  let client: FrameworkClient;
  try {
    client = createFramework({
      connectString: options.connect,
      connectionTimeoutMs: options.timeoutMs,
      sessionTimeoutMs: 30_000,
      retryPolicy: new RetryNTimes({ n: 2, sleepBetweenRetriesMs: 100 }),
      logger: silentLogger,
      detectEventLoopStalls: false,
      authInfo: options.digest === undefined ? [] : [{ scheme: 'digest', auth: options.digest }],
    });
  } catch (error) {
    throw new CliError(
      ExitCode.USAGE,
      `invalid --connect '${options.connect}': ${error instanceof Error ? error.message : ''}`,
    );
  }
  await client.start();
  if (!(await client.blockUntilConnected({ timeoutMs: options.timeoutMs }))) {
    await client.close();
    throw new CliError(
      ExitCode.CONNECTION,
      `could not connect to ZooKeeper at ${hostsOf(options.connect)} within ${options.timeoutMs} ms`,
    );
  }
  return client;
}

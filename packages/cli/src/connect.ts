// Connecting for a one-shot look: a short connection timeout, few retries and no logging (the
// CLI reports failures itself, once, with the hosts it tried), and no session-loss machinery
// beyond what the framework does anyway.
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type FrameworkClient,
} from '@zkrecipes/framework';
import type { CliOptions } from './cli-args.js';
import { CliError, ExitCode } from './exit-code.js';

/** The hosts of a connect string, for error messages (`a:1,b:2/chroot` -> `a:1, b:2`). */
export function hostsOf(connect: string): string {
  const slash = connect.indexOf('/');
  return (slash < 0 ? connect : connect.slice(0, slash)).split(',').join(', ');
}

/**
 * The session timeout to ask for. A connection attempt may take a third of it, or its share
 * among the hosts; a hung host (accepting TCP, never answering) costs that much before the
 * next is tried. So it is chosen for every host to get its turn within `--timeout`, instead of
 * a fixed 30 s that gave a hung host 10 s of a 5 s budget. The server may negotiate it up.
 */
export function sessionTimeoutFor(connect: string, timeoutMs: number): number {
  const hosts = hostsOf(connect).split(', ').length;
  const perHostMs = timeoutMs / (hosts + 1);
  const sessionMs = perHostMs * Math.max(3, hosts);
  return Math.round(Math.min(30_000, Math.max(1_000, sessionMs)));
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
      sessionTimeoutMs: sessionTimeoutFor(options.connect, options.timeoutMs),
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
  try {
    // Rejects with the servers tried and why (refused, host not found, ...); closes the client.
    await client.start({ timeoutMs: options.timeoutMs });
  } catch (error) {
    const why = error instanceof Error ? `: ${error.message}` : '';
    throw new CliError(
      ExitCode.CONNECTION,
      `could not connect to ZooKeeper at ${hostsOf(options.connect)} within ${options.timeoutMs} ms${why}`,
    );
  }
  return client;
}

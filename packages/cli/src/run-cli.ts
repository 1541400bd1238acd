// The whole CLI as a function: parse, dispatch, and turn every failure into a message and an
// exit code. main.ts only wires it to the process.
import { isConnectionLoss, isOperationTimeout, isSessionExpired } from '@zkrecipes/framework';
import type { CliIo } from './cli-io.js';
import { parseCliArgs, USAGE, type CliOptions } from './cli-options.js';
import { cliVersion } from './cli-version.js';
import { hostsOf } from './connect.js';
import { CliError, ExitCode } from './exit-code.js';
import { inspectCommand } from './inspect-command.js';
import { watchCommand } from './watch-command.js';

function asCliError(error: unknown, options: CliOptions | undefined): CliError {
  if (error instanceof CliError) return error;
  if (isConnectionLoss(error) || isSessionExpired(error) || isOperationTimeout(error)) {
    const hosts = options ? ` (${hostsOf(options.connect)})` : '';
    const detail = error instanceof Error ? error.message : String(error);
    return new CliError(ExitCode.CONNECTION, `lost the connection to ZooKeeper${hosts}: ${detail}`);
  }
  // Anything else is a bug or an unexpected server answer: say so, with the cause.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new CliError(ExitCode.CONNECTION, `unexpected error: ${detail}`);
}

/**
 * Runs `zkrecipes` with `argv` (the arguments after the script) and resolves its exit code.
 * Never rejects: failures are printed (as `{"error", "exitCode"}` on stdout with `--json`,
 * as a line on stderr otherwise) and mapped to an {@link ExitCode}.
 *
 * ```ts
 * const code = await runCli(['inspect', '/app/lock', '--json'], {
 *   stdout: (text) => process.stdout.write(text),
 *   stderr: (text) => process.stderr.write(text),
 *   env: process.env,
 * });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let options: CliOptions | undefined;
  try {
    options = parseCliArgs(argv, io.env);
    switch (options.command) {
      case 'help':
        io.stdout(`${USAGE}\n`);
        return ExitCode.OK;
      case 'version':
        io.stdout(`${cliVersion()}\n`);
        return ExitCode.OK;
      case 'inspect':
        return await inspectCommand(options, io);
      case 'watch':
        return await watchCommand(options, io);
    }
  } catch (caught) {
    const error = asCliError(caught, options);
    const json = options?.json ?? argv.includes('--json');
    if (json) {
      io.stdout(`${JSON.stringify({ error: error.message, exitCode: error.exitCode })}\n`);
    } else {
      io.stderr(`zkrecipes: ${error.message}\n`);
    }
    return error.exitCode;
  }
}

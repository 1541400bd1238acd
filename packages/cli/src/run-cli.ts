// The whole CLI as a function: parse, dispatch, and turn every failure into a message and an
// exit code. main.ts only wires it to the process. Only what `help` and `version` need is
// imported up front; the commands (and with them the framework and the recipes, most of the
// start-up time) are imported when one runs.
import type { CliIo } from './cli-io.js';
import { readCliArgs, USAGE, type CliOptions } from './cli-args.js';
import { cliVersion } from './cli-version.js';
import { CliError, ExitCode } from './exit-code.js';

async function asCliError(error: unknown, options: CliOptions | undefined): Promise<CliError> {
  if (error instanceof CliError) return error;
  const { isConnectionLoss, isOperationTimeout, isSessionExpired } =
    await import('@zkrecipes/framework');
  if (isConnectionLoss(error) || isSessionExpired(error) || isOperationTimeout(error)) {
    const { hostsOf } = await import('./connect.js');
    const hosts = options ? ` (${hostsOf(options.connect)})` : '';
    const detail = error instanceof Error ? error.message : String(error);
    return new CliError(ExitCode.CONNECTION, `lost the connection to ZooKeeper${hosts}: ${detail}`);
  }
  // Anything else is a bug or an unexpected server answer: say so, with the cause.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return new CliError(ExitCode.CONNECTION, `unexpected error: ${detail}`);
}

async function runCommand(options: CliOptions, io: CliIo): Promise<ExitCode> {
  const { checkCliPath } = await import('./cli-options.js');
  checkCliPath(options);
  if (options.command === 'inspect') {
    const { inspectCommand } = await import('./inspect-command.js');
    return await inspectCommand(options, io);
  }
  const { watchCommand } = await import('./watch-command.js');
  return await watchCommand(options, io);
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
    options = readCliArgs(argv, io.env);
    switch (options.command) {
      case 'help':
        io.stdout(`${USAGE}\n`);
        return ExitCode.OK;
      case 'version':
        io.stdout(`${cliVersion()}\n`);
        return ExitCode.OK;
      case 'inspect':
      case 'watch':
        return await runCommand(options, io);
    }
  } catch (caught) {
    const error = await asCliError(caught, options);
    const json = options?.json ?? argv.includes('--json');
    if (json) {
      io.stdout(`${JSON.stringify({ error: error.message, exitCode: error.exitCode })}\n`);
    } else {
      io.stderr(`zkrecipes: ${error.message}\n`);
    }
    return error.exitCode;
  }
}

// The whole command line check: cli-args.ts's parse plus the path's ZooKeeper rules, which need
// the framework (and so are loaded only by the commands that take a path).
import { validatePath } from '@zkrecipes/framework';
import { readCliArgs, usageError, type CliOptions } from './cli-args.js';

export {
  COMMANDS,
  CONNECT_ENV,
  DEFAULT_CONNECT,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DIGEST_ENV,
  USAGE,
} from './cli-args.js';
export type { CliOptions, Command } from './cli-args.js';

/** Throws a usage {@link CliError} when the command's path breaks ZooKeeper's path rules. */
export function checkCliPath(options: CliOptions): void {
  if (options.command !== 'inspect' && options.command !== 'watch') return;
  try {
    validatePath(options.path);
  } catch (error) {
    throw usageError(
      `invalid path '${options.path}': ${error instanceof Error ? error.message : ''}`,
    );
  }
}

/** Parses `argv` (without node and the script). Throws a usage {@link CliError} on misuse. */
export function parseCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  const options = readCliArgs(argv, env);
  checkCliPath(options);
  return options;
}

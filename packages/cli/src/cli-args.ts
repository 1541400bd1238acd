// The command line: `zkrecipes <command> <path> [flags]`. Parsed with node:util's parseArgs in
// strict mode, so a typo in a flag is a usage error (exit 2), never silently ignored. Nothing
// here imports the framework: `--version` and `--help` answer without loading it (the path is
// checked against ZooKeeper's rules in cli-options.ts, by the commands that need a path).
import { parseArgs } from 'node:util';
import { CliError, ExitCode } from './exit-code.js';

/** The commands `zkrecipes` knows. */
export const COMMANDS = ['inspect', 'watch', 'help', 'version'] as const;
/** One of {@link COMMANDS}. */
export type Command = (typeof COMMANDS)[number];

/** Environment variable read when `--connect` is not given. */
export const CONNECT_ENV = 'ZKRECIPES_CONNECT';
/** Environment variable read when `--digest` is not given (keeps passwords out of `ps`). */
export const DIGEST_ENV = 'ZKRECIPES_DIGEST';
/** The ensemble used when neither `--connect` nor ZKRECIPES_CONNECT is set. */
export const DEFAULT_CONNECT = '127.0.0.1:2181';
/** Default of `--timeout`: how long to wait for a connection. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** A parsed command line. */
export interface CliOptions {
  /** The command to run. */
  readonly command: Command;
  /** The znode path (not for `help` and `version`). */
  readonly path: string;
  /** `host:port[,host:port...][/chroot]`. */
  readonly connect: string;
  /** `user:password` for ZooKeeper's digest scheme, if any. */
  readonly digest: string | undefined;
  /** Print JSON instead of tables. */
  readonly json: boolean;
  /**
   * Exit 1 when the path holds nodes no recipe layout explains (default: list them, exit 0).
   * A path that holds nothing is no failure: that is what a free lock looks like.
   */
  readonly strict: boolean;
  /** How long to wait for the first connection. */
  readonly timeoutMs: number;
}

/** The usage text of `zkrecipes help`. */
export const USAGE = `Usage: zkrecipes <command> <path> [options]

Commands:
  inspect <path>   decode the recipe under <path> (lock, semaphore, read/write lock,
                   leader election, queue, double barrier, group) or list its children
  watch <path>     the same view, printed again whenever it changes, until Ctrl-C
  help             this text
  version          the version of zkrecipes

Options:
  -c, --connect <hosts>   host:port[,host:port...][/chroot]
                          (default: $${CONNECT_ENV}, else ${DEFAULT_CONNECT})
      --digest <u:p>      digest auth user:password (default: $${DIGEST_ENV})
      --json              machine-readable output (watch: one JSON object per line)
      --strict            exit 1 when the nodes under <path> are no recipe's
      --timeout <ms>      connection timeout (default ${DEFAULT_CONNECT_TIMEOUT_MS})
  -h, --help              this text
  -v, --version           the version of zkrecipes

Exit codes: 0 ok (also nothing held: an empty or missing path, as a free lock's),
            1 unrecognised with --strict, or not readable with the credentials given,
            2 usage error, 3 ensemble unreachable or session lost`;

/** A usage failure (exit 2) with the hint to `zkrecipes help`. */
export function usageError(message: string): CliError {
  return new CliError(ExitCode.USAGE, `${message}\nRun 'zkrecipes help' for usage.`);
}

/**
 * Parses `argv` (without node and the script) but for the path's ZooKeeper rules, which
 * `parseCliArgs` adds. Throws a usage {@link CliError} on misuse.
 */
export function readCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        connect: { type: 'string', short: 'c' },
        digest: { type: 'string' },
        json: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [commandName, path, ...extra] = positionals;
  const common = {
    // An empty variable (`ZKRECIPES_CONNECT=`) is a shell's way of saying "not set".
    connect: values.connect ?? nonEmpty(env[CONNECT_ENV]) ?? DEFAULT_CONNECT,
    digest: values.digest ?? nonEmpty(env[DIGEST_ENV]),
    json: values.json,
    strict: values.strict,
    timeoutMs: parseTimeout(values.timeout),
  };
  if (values.help || commandName === 'help') return { command: 'help', path: '/', ...common };
  if (values.version || commandName === 'version') {
    return { command: 'version', path: '/', ...common };
  }
  if (commandName === undefined) throw usageError('no command given');
  if (!(COMMANDS as readonly string[]).includes(commandName)) {
    throw usageError(`unknown command '${commandName}'`);
  }
  if (path === undefined) throw usageError(`'${commandName}' needs a path`);
  if (extra.length > 0) throw usageError(`unexpected argument '${extra[0]}'`);
  if (common.digest !== undefined && !common.digest.includes(':')) {
    throw usageError('--digest must be user:password');
  }
  return { command: commandName as Command, path, ...common };
}

/** The longest timer Node keeps (a larger delay fires after 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CONNECT_TIMEOUT_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
    throw usageError(
      `--timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not '${value}'`,
    );
  }
  return ms;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

// The exit codes are part of the CLI's contract: scripts branch on them, so they never change
// meaning. Every failure the CLI reports goes through CliError so it carries one of them.

/** What `zkrecipes` exits with. */
export const ExitCode = {
  /**
   * The command did what was asked: a recipe decoded, nothing held (an empty path, or none at
   * all, as a free lock's may be), or a plain tree listing of an unrecognised path.
   */
  OK: 0,
  /**
   * With `--strict`, the path holds nodes no recipe layout explains; or it cannot be read with
   * the credentials given.
   */
  NOT_FOUND: 1,
  /** Bad command line: unknown command or flag, missing path, invalid value. */
  USAGE: 2,
  /** The ensemble could not be reached within the connection timeout, or the session failed. */
  CONNECTION: 3,
} as const;
/** One of the values of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
/** One of the names of {@link ExitCode}: `'OK' | 'NOT_FOUND' | 'USAGE' | 'CONNECTION'`. */
export type ExitCodeName = keyof typeof ExitCode;

function exitCodeName(exitCode: ExitCode): ExitCodeName {
  const names = Object.keys(ExitCode) as ExitCodeName[];
  return names.find((name) => ExitCode[name] === exitCode) ?? 'USAGE';
}

/**
 * A failure to report to the operator: a one-line message (printed to stderr, or as
 * `{"error": ...}` with `--json`) and the exit code that goes with it.
 *
 * ```ts
 * throw new CliError(ExitCode.NOT_FOUND, 'no node at /app/lock');
 * ```
 */
export class CliError extends Error {
  /** Always `'CliError'`. */
  override name = 'CliError';
  /** The process exit code for this failure. */
  readonly exitCode: ExitCode;
  /** The exit code's name (`'NOT_FOUND'` for 1), as the other packages' errors carry a `code`. */
  readonly code: ExitCodeName;

  constructor(exitCode: ExitCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
    this.code = exitCodeName(exitCode);
  }
}

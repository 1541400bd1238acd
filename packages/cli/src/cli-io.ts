// Where the CLI reads and writes, injected so that runCli can run inside a test or another
// program as well as from main.ts.

/** The CLI's environment: output streams, variables and the stop signal (Ctrl-C). */
export interface CliIo {
  /** Writes to standard output (the text ends with its own newline). */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** Environment variables (ZKRECIPES_CONNECT, ZKRECIPES_DIGEST). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted to stop `watch` (main wires it to SIGINT and SIGTERM). */
  readonly signal?: AbortSignal | undefined;
  /** Whether stdout is a terminal: `watch` then redraws in place instead of appending. */
  readonly interactive?: boolean | undefined;
}

// `zkrecipes inspect <path>`: one read of the layout, printed once.
import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-args.js';
import { connect } from './connect.js';
import { ExitCode } from './exit-code.js';
import { inspectPath } from './inspect-path.js';
import type { Inspection } from './inspection.js';
import { renderInspection } from './render-inspection.js';

/**
 * The exit code for a successful inspection: `--strict` refuses a plain listing, the one thing
 * it cannot recognise; nothing held (`empty`) is a recipe's idle state, not a failure.
 */
export function inspectionExitCode(inspection: Inspection, options: CliOptions): ExitCode {
  return options.strict && inspection.kind === 'tree' ? ExitCode.NOT_FOUND : ExitCode.OK;
}

/** Prints an inspection as `--json` or tables ask. */
export function printInspection(inspection: Inspection, options: CliOptions, io: CliIo): void {
  io.stdout(
    options.json ? `${JSON.stringify(inspection, null, 2)}\n` : `${renderInspection(inspection)}\n`,
  );
  if (options.strict && inspection.kind === 'tree') {
    io.stderr(`no recipe layout recognised under ${inspection.path}\n`);
  }
}

/** Runs `inspect`; resolves the exit code, throws a CliError for failures. */
export async function inspectCommand(options: CliOptions, io: CliIo): Promise<ExitCode> {
  const client = await connect(options);
  try {
    const inspection = await inspectPath(client, options.path);
    printInspection(inspection, options, io);
    return inspectionExitCode(inspection, options);
  } finally {
    await client.close();
  }
}

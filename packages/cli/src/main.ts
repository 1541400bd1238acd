#!/usr/bin/env node
// The `zkrecipes` binary: wires runCli to the process. Ctrl-C or SIGTERM stops `watch`
// cleanly, with exit code 0: stopping is how a watch ends, not a failure.
import { runCli } from './run-cli.js';

/**
 * Signals this soon after the first are the same request to stop: a terminal's Ctrl-C reaches
 * the whole process group, and `npx` (npm exec), which is in it, forwards the one it gets to
 * its child as well, so under npx one Ctrl-C arrives twice.
 */
const SAME_STOP_MS = 1000;

const stop = new AbortController();
let firstSignalAt: number | undefined;
const onSignal = (signal: NodeJS.Signals): void => {
  const now = performance.now();
  if (firstSignalAt === undefined) {
    firstSignalAt = now;
    stop.abort();
  } else if (now - firstSignalAt > SAME_STOP_MS) {
    // Asked again later: the clean stop is taking too long (an ensemble that does not answer
    // the close, say). Leave at once, as the signal would have without a handler.
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  }
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  signal: stop.signal,
  interactive: process.stdout.isTTY,
});
// The handlers stay until the process ends (they do not keep it alive): a duplicate arriving
// after the stop would otherwise kill it with 130 on the way out.
process.exitCode = code;

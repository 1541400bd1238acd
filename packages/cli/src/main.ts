#!/usr/bin/env node
// The `zkrecipes` binary: wires runCli to the process. Ctrl-C (or SIGTERM) stops `watch`
// cleanly; a second Ctrl-C exits at once.
import { runCli } from './run-cli.js';

const stop = new AbortController();
const onSignal = (): void => {
  if (stop.signal.aborted) process.exit(130);
  stop.abort();
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
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
process.exitCode = code;

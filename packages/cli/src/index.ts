// @zkrecipes/cli: the `zkrecipes` binary's pieces, for programs that want the same decode.
export { runCli } from './run-cli.js';
export type { CliIo } from './cli-io.js';
export {
  COMMANDS,
  CONNECT_ENV,
  DEFAULT_CONNECT,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DIGEST_ENV,
  parseCliArgs,
  USAGE,
} from './cli-options.js';
export type { CliOptions, Command } from './cli-options.js';
export { CliError, ExitCode, type ExitCodeName } from './exit-code.js';
export { inspectPath } from './inspect-path.js';
export type {
  DoubleBarrierInspection,
  EmptyInspection,
  GroupInspection,
  GroupMemberView,
  Inspection,
  InspectionBase,
  InspectionKind,
  LeaderLatchInspection,
  MutexInspection,
  QueueInspection,
  QueueItemView,
  ReadWriteLockInspection,
  ReadWriteParticipant,
  SemaphoreInspection,
  TreeEntry,
  TreeInspection,
} from './inspection.js';
export type { DataView, NodeView } from './node-view.js';
export { decodeEnvelope } from './decode-queue.js';

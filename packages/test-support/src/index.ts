// Test helpers shared by the workspaces' tests. Private: never packed or published.
export { assertCallsRefuse, type RefusingCall } from './calls-refuse.js';
export { closeAll } from './close-all.js';
export { connect } from './connect.js';
export { connectedClient } from './connected-client.js';
export { percentile } from './percentile.js';
export { serverAndTwoClients, type ServerAndTwoClients } from './server-and-two-clients.js';
export { startClient } from './start-client.js';
export { startedClient, type ClientOptions, type ClientTarget } from './started-client.js';
export { OtelCapture, scopeKey, type Point } from './telemetry/otel-capture.js';
export {
  assertSignalsEndCallsWhilePaused,
  type SignalledCall,
  type SignalledWhilePausedOptions,
} from './signalled-while-paused.js';
export { assertBetween, elapsedMs, isTimeoutError, timed, type Timed } from './timed-call.js';
export { reportGrant, serveTrial, type ChildGrant } from './paused-waiter-child.js';
export {
  describeTrials,
  pausedWaiterTrial,
  pausedWaiterTrialCount,
  pausedWaiterTrials,
  type PausedWaiterTrial,
  type PausedWaiterTrialOptions,
  type TrialHold,
} from './paused-waiter-trial.js';

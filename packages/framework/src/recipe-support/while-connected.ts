import type { FrameworkClient } from '../client/framework-client.js';
import {
  connectionBoundSignal,
  type WhileConnected,
  type WhileConnectedOptions,
} from '../state/connection-bound-signal.js';
import { connectionStreamOf } from './connection-stream-of.js';

/**
 * For work worth waiting for only while `client`'s connection is up (a cleanup on release or
 * close, a put in flight at shutdown): a signal aborted at once when the client is not
 * connected, as soon as the connection goes or the client closes, and after `withinMs` when
 * given. Work that needs a connection then goes on in the background (or ends with the
 * session), so a close never waits out an outage.
 */
export function whileConnected(
  client: FrameworkClient,
  options: WhileConnectedOptions = {},
): WhileConnected {
  return connectionBoundSignal(connectionStreamOf(client), options);
}

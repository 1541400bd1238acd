import type { FrameworkClient } from '../client/framework-client.js';
import {
  connectionBoundSignal,
  type WhileConnected,
  type WhileConnectedOptions,
} from '../state/connection-bound-signal.js';
import { connectionStreamOf } from './connection-stream-of.js';

/**
 * For work worth waiting for only while `client`'s connection is up (a cleanup on release or
 * close): see {@link connectionBoundSignal}.
 */
export function whileConnected(
  client: FrameworkClient,
  options: WhileConnectedOptions = {},
): WhileConnected {
  return connectionBoundSignal(connectionStreamOf(client), options);
}

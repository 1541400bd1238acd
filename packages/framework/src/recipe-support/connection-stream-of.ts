import { CONNECTION_STREAM, type FrameworkClient } from '../client/framework-client.js';
import type { ConnectionStream } from '../state/connection-stream.js';

/**
 * The connection stream of `client` (shared with its namespace views): the one way a recipe
 * learns about states, losses, the connection that is up and the client's close.
 */
export function connectionStreamOf(client: FrameworkClient): ConnectionStream {
  return client[CONNECTION_STREAM]();
}

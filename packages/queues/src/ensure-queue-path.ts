import {
  isNodeExists,
  isNoNode,
  isOutcomeUnknown,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { prepareIdempotentWrites } from '@zkrecipes/framework/recipe-support';

/** A create-if-absent's "it is there": NODE_EXISTS, also after a lost reply. */
function existsAlready(error: unknown): boolean {
  return isNodeExists(error) || isOutcomeUnknown(error, 'NODE_EXISTS');
}

/**
 * Creates the queue's node (and parents) if missing and lists its children, in one round trip:
 * both requests go out together. A listing answered before the create (the node was missing)
 * is repeated. `signal` ends it (a request still waiting for a connection is never sent).
 *
 * The node is made in `mode`: PERSISTENT for a DistributedQueue (Curator's `start()` creates
 * it so), CONTAINER for a SimpleDistributedQueue (Curator's `EnsureContainers`, so an emptied
 * queue is reaped by the server); missing parents are containers either way.
 */
export async function ensureAndList(
  client: FrameworkClient,
  path: string,
  signal: AbortSignal | undefined,
  mode: 'PERSISTENT' | 'CONTAINER' = 'PERSISTENT',
): Promise<string[]> {
  const [created, listed] = await Promise.allSettled([
    client.create(path, { createParents: true, mode, signal }),
    client.getChildren(path, { signal }),
  ]);
  if (created.status === 'rejected' && !existsAlready(created.reason)) throw created.reason;
  // Claims and puts are idempotent writes: their witness is made while nothing waits for it.
  prepareIdempotentWrites(client);
  if (listed.status === 'fulfilled') return listed.value;
  if (!isNoNode(listed.reason)) throw listed.reason;
  return client.getChildren(path, { signal });
}

/** Creates a node (and parents) unless it exists. */
export async function ensureNode(
  client: FrameworkClient,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await client.create(path, { createParents: true, signal });
  } catch (error) {
    if (!existsAlready(error)) throw error;
  }
}

// A queue owns every child of its path. Pointing a queue at a path another recipe uses would
// mix their nodes (a lock's contenders taken as items, items sorted into a lock's line), so the
// queues refuse a path that already holds another recipe's nodes.
import { InvalidArgumentError, stripProtectedPrefix } from '@zkrecipes/framework';
import { DISTRIBUTED_QUEUE_PREFIX, SIMPLE_QUEUE_PREFIX } from './queue-node-names.js';

const SEQUENCE = /^(?:\d{10}|-\d{9,10})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Curator's node names, checked in this order (protection prefix removed first).
const SIGNATURES: readonly { readonly recipe: string; readonly test: (name: string) => boolean }[] =
  [
    { recipe: 'DistributedQueue', test: sequenced(DISTRIBUTED_QUEUE_PREFIX) },
    { recipe: 'SimpleDistributedQueue', test: sequenced(SIMPLE_QUEUE_PREFIX) },
    { recipe: 'InterProcessMutex or LeaderSelector', test: sequenced('lock-') },
    { recipe: 'InterProcessReadWriteLock', test: (n) => /^__(?:READ|WRIT)__/.test(n) },
    { recipe: 'LeaderLatch', test: sequenced('latch-') },
    { recipe: 'InterProcessSemaphore', test: sequenced('lease-') },
    { recipe: 'InterProcessSemaphoreV2', test: (n) => n === 'locks' || n === 'leases' },
    { recipe: 'DistributedDoubleBarrier', test: (n) => n === 'ready' || UUID.test(n) },
  ];

function sequenced(prefix: string): (name: string) => boolean {
  return (name) => name.startsWith(prefix) && SEQUENCE.test(name.slice(prefix.length));
}

/** The Curator recipe a child node's name belongs to, or undefined when it is not recognised. */
export function recipeOfNode(name: string): string | undefined {
  const bare = stripProtectedPrefix(name);
  return SIGNATURES.find((signature) => signature.test(bare))?.recipe;
}

/**
 * Rejects a queue path whose children belong to another recipe, naming the recipe and one of
 * its nodes. Children nobody recognises are left to the caller (queues ignore them, as Curator
 * does, with a warning).
 */
export function assertQueuePathOwned(
  path: string,
  children: readonly string[],
  ownRecipe: 'DistributedQueue' | 'SimpleDistributedQueue',
): void {
  for (const child of children) {
    const recipe = recipeOfNode(child);
    if (recipe !== undefined && recipe !== ownRecipe) {
      throw new InvalidArgumentError(
        `this path is used by another recipe: its child "${child}" is a ${recipe} node; a ` +
          `${ownRecipe} owns every child of its path, so give it a path of its own`,
        { path },
      );
    }
  }
}

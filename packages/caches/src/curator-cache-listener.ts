import { InvalidArgumentError } from '@zkrecipes/framework';
import {
  booleanOption,
  checkOptionsObject,
  checkFunction,
} from '@zkrecipes/framework/recipe-support';
import type { ChildData } from './child-data.js';
import type { CuratorCacheEvent, CuratorCacheListener } from './curator-cache-event.js';

/**
 * What {@link curatorCacheListener} builds: Curator's `CuratorCacheListener.builder()` as an
 * options object. Each handler runs only for its kind of event; every one given runs, in the
 * order listed here. A handler may return a promise: its rejection goes to the cache's `errors`.
 */
export interface CuratorCacheListenerOptions {
  /** Every event, as the cache emits it (Curator's `forAll`). */
  readonly forAll?: CuratorCacheListener | undefined;
  /** NODE_CREATED, given the new node (`forCreates`). */
  readonly forCreates?: ((data: ChildData) => unknown) | undefined;
  /** NODE_CHANGED, given the node before and after (`forChanges`). */
  readonly forChanges?: ((oldData: ChildData, data: ChildData) => unknown) | undefined;
  /** NODE_CREATED (oldData undefined) and NODE_CHANGED (`forCreatesAndChanges`). */
  readonly forCreatesAndChanges?:
    ((oldData: ChildData | undefined, data: ChildData) => unknown) | undefined;
  /** NODE_DELETED, given the node as it was cached (`forDeletes`). */
  readonly forDeletes?: ((oldData: ChildData) => unknown) | undefined;
  /** INITIALIZED (`forInitialized`). */
  readonly forInitialized?: (() => unknown) | undefined;
  /**
   * Node events only for paths this accepts (INITIALIZED always passes). Curator leaves this to
   * the listener; here it saves writing the same check in every handler.
   */
  readonly pathFilter?: ((path: string) => boolean) | undefined;
  /**
   * Hand nothing to the handlers before INITIALIZED: node events of the initial load are
   * skipped (Curator's `afterInitialized()`). Default: false.
   */
  readonly afterInitialized?: boolean | undefined;
}

const HANDLERS = [
  'forAll',
  'forCreates',
  'forChanges',
  'forCreatesAndChanges',
  'forDeletes',
  'forInitialized',
] as const;

/**
 * Builds one listener for `cache.on('event', ...)` from per-kind handlers (Curator's
 * `CuratorCacheListener.builder()`). Like Curator's, a listener built with `afterInitialized`
 * remembers whether it has seen INITIALIZED, so give each cache its own.
 *
 * ```ts
 * cache.on('event', curatorCacheListener({
 *   forCreates: (node) => console.log('created', node.path),
 *   forDeletes: (old) => console.log('deleted', old.path),
 *   afterInitialized: true,
 * }));
 * ```
 */
export function curatorCacheListener(options: CuratorCacheListenerOptions): CuratorCacheListener {
  if (options === undefined) throw new InvalidArgumentError('options are required');
  checkOptionsObject(options);
  let given = 0;
  for (const name of HANDLERS) {
    const handler: unknown = options[name];
    if (handler === undefined) continue;
    checkFunction(name, handler);
    given += 1;
  }
  if (given === 0) {
    throw new InvalidArgumentError(`give at least one handler (${HANDLERS.join(', ')})`);
  }
  const { pathFilter } = options;
  if (pathFilter !== undefined) checkFunction('pathFilter', pathFilter);
  let initialized = !booleanOption('afterInitialized', options.afterInitialized, false);
  return (event: CuratorCacheEvent): unknown => {
    if (event.type === 'INITIALIZED') {
      initialized = true;
    } else if (
      !initialized ||
      (pathFilter !== undefined && !pathFilter((event.data ?? event.oldData).path))
    ) {
      return undefined;
    }
    return settleAll(dispatch(options, event));
  };
}

function dispatch(options: CuratorCacheListenerOptions, event: CuratorCacheEvent): unknown[] {
  const results: unknown[] = [];
  if (options.forAll) results.push(options.forAll(event));
  switch (event.type) {
    case 'NODE_CREATED':
      if (options.forCreates) results.push(options.forCreates(event.data));
      if (options.forCreatesAndChanges) {
        results.push(options.forCreatesAndChanges(undefined, event.data));
      }
      break;
    case 'NODE_CHANGED':
      if (options.forChanges) results.push(options.forChanges(event.oldData, event.data));
      if (options.forCreatesAndChanges) {
        results.push(options.forCreatesAndChanges(event.oldData, event.data));
      }
      break;
    case 'NODE_DELETED':
      if (options.forDeletes) results.push(options.forDeletes(event.oldData));
      break;
    case 'INITIALIZED':
      if (options.forInitialized) results.push(options.forInitialized());
      break;
  }
  return results;
}

/** One promise for the handlers' promises, so every rejection reaches the cache's errors. */
function settleAll(results: unknown[]): unknown {
  const pending = results.filter(
    (result): result is PromiseLike<unknown> =>
      typeof (result as { then?: unknown } | null)?.then === 'function',
  );
  return pending.length === 0 ? undefined : Promise.all(pending);
}

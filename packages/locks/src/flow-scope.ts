// What "the same logical flow" means for reentrancy. Node has no threads; the nearest thing to
// Curator's per-thread ownership is an async context. AsyncLocalStorage carries a context *down*
// into everything a function starts, but never back *up* to its caller: an acquire() cannot
// mark the code that awaits it without also marking whatever else its caller goes on to start
// (enterWith leaks into sibling tasks and into later events on the same resource, and would let
// two concurrent flows share a hold). So a flow is an explicit scope, made by runInFlow() or
// withLock(): inside it (and in everything it starts), re-acquiring counts; outside any scope,
// every acquire() is a flow of its own and excludes all others.
import { AsyncLocalStorage } from 'node:async_hooks';
import { checkFunction } from '@zkrecipes/framework/recipe-support';

/** A hold counted by acquire/release within one flow. */
export interface CountedHold {
  count: number;
}

/** One flow: the holds it has, and the flow it was started from. */
export class FlowScope {
  readonly parent: FlowScope | undefined;
  /** Holds keyed by lock object. */
  readonly holds = new Map<object, CountedHold>();
  /** Acquires under way in this flow, so a second one for the same lock joins the first. */
  readonly pending = new Map<object, Promise<unknown>>();

  constructor(parent: FlowScope | undefined) {
    this.parent = parent;
  }
}

const storage = new AsyncLocalStorage<FlowScope>();

/**
 * Runs `fn` as a new lock flow (a child of the current one, if any) and returns what it
 * returns. Inside, `acquire()` of a lock the flow (or a flow it was started from) already holds
 * is reentrant: it counts, and the lock is released after the matching number of `release()`
 * calls. Work that `fn` starts belongs to the flow; to make concurrent workers exclude each
 * other, give each its own `runInFlow`. A `fn` that is not a function throws
 * InvalidArgumentError before anything runs.
 *
 * @example
 * await runInFlow(async () => {
 *   await mutex.acquire();
 *   try { await helperThatAlsoLocks(); } finally { await mutex.release(); }
 * });
 */
export function runInFlow<T>(fn: () => T): T {
  // Checked before the scope exists: a non-function is an InvalidArgumentError, not a TypeError.
  checkFunction('runInFlow(fn): fn', fn);
  return storage.run(new FlowScope(storage.getStore()), fn);
}

/** The current flow, or undefined outside any. */
export function currentFlow(): FlowScope | undefined {
  return storage.getStore();
}

/** The hold of `lock` in the current flow or the flows it was started from, with its flow. */
export function findFlowHold<H extends CountedHold>(
  lock: object,
  from: FlowScope | undefined = storage.getStore(),
): { scope: FlowScope; hold: H } | undefined {
  for (let scope = from; scope !== undefined; scope = scope.parent) {
    const hold = scope.holds.get(lock);
    if (hold !== undefined) return { scope, hold: hold as H };
  }
  return undefined;
}

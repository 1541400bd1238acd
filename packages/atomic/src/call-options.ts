import { checkRecipeOptions, signalOption } from '@zkrecipes/framework/recipe-support';

/** Options of every call of this package that talks to ZooKeeper. */
export interface CallOptions {
  /**
   * Aborting rejects the call with the signal's reason at once, in any connection state (a
   * write still waiting for a connection is then never sent; one in flight may still take
   * effect). `AbortSignal.timeout(ms)` bounds a call in time. Default: none (the client's retry
   * policy, and the recipe's or client's close, bound it).
   */
  readonly signal?: AbortSignal | undefined;
}

/** Checks `options` (an object or undefined; `signal` an AbortSignal); returns the signal. */
export function checkCallOptions(options: unknown): AbortSignal | undefined {
  checkRecipeOptions('options', options, ['signal']);
  return signalOption((options as CallOptions | undefined)?.signal);
}

/** Options of every blocking call of the barriers. */
export interface WaitOptions {
  /**
   * Give up after this many milliseconds: the call then resolves `false`. Default: wait until
   * the condition holds, the signal aborts or the client closes.
   */
  readonly timeoutMs?: number | undefined;
  /** Aborting rejects the call with the signal's reason. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

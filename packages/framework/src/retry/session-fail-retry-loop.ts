import { InvalidArgumentError, SessionExpiredError } from '../errors/zookeeper-error-classes.js';
import { RetryNTimes } from './retry-n-times.js';
import type { RetryPolicy } from './retry-policy.js';
import { retryLoop } from './retry-loop.js';

/** The one thing {@link runSessionBound} needs from a client: its current session id. */
export interface SessionIdSource {
  /** The current session's id; `undefined` while there is none. */
  readonly sessionId: bigint | undefined;
}

/** Options of {@link runSessionBound}. */
export interface RunSessionBoundOptions {
  /**
   * What a session change does (Curator's `SessionFailRetryLoop.Mode`): `'fail'` throws
   * SessionExpiredError; `'retry'` runs the whole body again from the start. Required.
   */
  mode: 'fail' | 'retry';
  /**
   * In `'retry'` mode, how often and when to start over; it sees a SessionExpiredError.
   * Default: `new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 0 })`: a changed session means a
   * new one already exists, and the body's operations wait for the connection themselves.
   */
  policy?: RetryPolicy | undefined;
  /** Aborting rejects with the signal's reason at once. */
  signal?: AbortSignal | undefined;
  /** Injectable sleep for unit tests, as in retryLoop. */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

const SESSION_CHANGED = 'session changed during a session-bound operation';

/**
 * Runs a sequence of operations that only makes sense within one ZooKeeper session (Curator's
 * `SessionFailRetryLoop`), e.g. creating an ephemeral node and then acting on the fact that it
 * exists. The session id is recorded when the body starts and compared when it ends or throws;
 * any difference (including losing the session, `undefined`) counts as a change. So start it
 * while connected: a body started with no session and finished in one counts as changed.
 *
 * Errors of the body with the session unchanged are rethrown as they are; per-operation
 * retries belong inside the body (the client's own retry loop).
 *
 * @example
 * await runSessionBound(client, async () => {
 *   await client.create('/app/workers/w1', { mode: 'EPHEMERAL' });
 *   await client.setData('/app/status', Buffer.from('w1 up'));
 * }, { mode: 'retry' });
 */
export async function runSessionBound<T>(
  session: SessionIdSource,
  body: () => Promise<T>,
  options: RunSessionBoundOptions,
): Promise<T> {
  if (options.mode !== 'fail' && options.mode !== 'retry') {
    throw new InvalidArgumentError(
      `mode must be 'fail' or 'retry'; got ${JSON.stringify(options.mode) ?? 'undefined'}`,
    );
  }
  // Only our own "session changed" errors may start the body over; a SESSION_EXPIRED thrown by
  // the body with the session id unchanged is the body's business.
  const changes = new WeakSet<object>();
  const changed = (cause?: unknown): SessionExpiredError => {
    const error = new SessionExpiredError(
      cause === undefined ? { detail: SESSION_CHANGED } : { detail: SESSION_CHANGED, cause },
    );
    changes.add(error);
    return error;
  };

  return retryLoop(
    async () => {
      const startId = session.sessionId;
      let result: T;
      try {
        result = await body();
      } catch (error) {
        if (session.sessionId !== startId) throw changed(error);
        throw error;
      }
      if (session.sessionId !== startId) throw changed();
      return result;
    },
    {
      policy: options.policy ?? new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 0 }),
      signal: options.signal,
      sleep: options.sleep,
      isRetryable: (error) =>
        options.mode === 'retry' &&
        typeof error === 'object' &&
        error !== null &&
        changes.has(error),
    },
  );
}

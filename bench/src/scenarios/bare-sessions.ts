import { RawZooKeeperSession } from '@zkrecipes/testing';
import type { BenchContext } from '../bench-context.js';
import { SESSION_TIMEOUT_MS } from '../bench-context.js';

/**
 * The wire floors' setup: `count` bare sessions (no client library) with the peer's session
 * timeout, the scenario's `path` and `lockPath` below it created, `work` run with them, and
 * the sessions closed afterwards whatever happened.
 */
export async function withBareSessions<T>(
  context: BenchContext,
  count: number,
  paths: { readonly path: string; readonly lockPath: string },
  work: (sessions: readonly RawZooKeeperSession[]) => Promise<T>,
): Promise<T> {
  const sessions = await Promise.all(
    Array.from({ length: count }, () =>
      RawZooKeeperSession.connect(context.connectString, { sessionTimeoutMs: SESSION_TIMEOUT_MS }),
    ),
  );
  try {
    await sessions[0]!.create(paths.path);
    await sessions[0]!.create(paths.lockPath);
    return await work(sessions);
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

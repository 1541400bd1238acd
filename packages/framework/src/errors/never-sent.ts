// Errors of requests that never left this client (a request that waited for a connection
// until connectionTimeoutMs): their write cannot have been applied, so a retry's conflict is
// not ambiguous (see client/write-ambiguity.ts).
const neverSent = new WeakSet<object>();

/** Marks `error` as the failure of a request that was never sent; returns it. */
export function markNeverSent<E extends object>(error: E): E {
  neverSent.add(error);
  return error;
}

/** False only for a failure known to have happened before the request was sent. */
export function wasSent(error: unknown): boolean {
  return typeof error !== 'object' || error === null || !neverSent.has(error);
}

// Errors of requests that waited for a client's first connection in vain: a retry would only
// wait the same way again, so the framework's retry loop passes them on (see FirstConnection).
const beforeFirstConnection = new WeakSet<object>();

/** Marks `error` as the failure of a wait for a first connection that never came; returns it. */
export function markBeforeFirstConnection<E extends object>(error: E): E {
  beforeFirstConnection.add(error);
  return error;
}

/** True for a failure of a wait for a first connection that never came. */
export function isBeforeFirstConnection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && beforeFirstConnection.has(error);
}

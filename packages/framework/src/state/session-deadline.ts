// When a session may be gone, judged only from what the client knows: the send time of the
// newest request the server answered. The server resets a session's expiry whenever it hears
// from it, so it cannot expire the session before that send time plus the negotiated timeout.
// Counting from the last answer instead (or from SUSPENDED, which itself comes two thirds of a
// timeout after the last reply) would let the server expire the session, and another client
// take what it held, before this client says LOST.

/** Timers fire late and clocks of two machines drift: LOST comes this much early. */

export function lostSafetyMarginMs(windowMs: number): number {
  return Math.min(100, windowMs / 50);
}

/**
 * The `performance.now()` instant at which the simulated session loss is declared: the
 * session policy's window (`percent` of the negotiated timeout) after the server last heard
 * the session, a little early.
 */
export function lostDeadlineMs(
  lastHeardMs: number,
  sessionTimeoutMs: number,
  percent: number,
): number {
  const windowMs = (sessionTimeoutMs * percent) / 100;
  return lastHeardMs + windowMs - lostSafetyMarginMs(windowMs);
}

/**
 * The instant after which a silent connection is declared dead (SUSPENDED): two thirds of the
 * negotiated timeout after the server last heard the session, ZooKeeper's own read timeout.
 */
export function suspendedDeadlineMs(lastHeardMs: number, sessionTimeoutMs: number): number {
  return lastHeardMs + (sessionTimeoutMs * 2) / 3;
}

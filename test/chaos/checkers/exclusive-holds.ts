// The rule shared by the mutex and leader checkers: at most one *sound* hold at any instant.
//
// A holder records a claim each time it acts: "at t, my hold is sound until vu" (its
// `validUntil`, on the shared clock). A claim covers [t, vu), cut at the hold's end when the
// holder gave it up on purpose (release, close); a claim with vu <= t claims nothing. A hold
// covers the span from its first sound claim to the furthest end of one: a hold is sound only
// while no loss happened since it was confirmed, so it was sound throughout. Two holds of
// different holders (or two holds of one holder) must not overlap; where they do, the earlier
// holder's validity had not expired yet, which is the bug. An expired hold (vu <= t) that
// overlaps another is allowed: that is exactly what validity is for.
//
// Only the claims' own timestamps are used, no timing assumption: a process stopped between
// reading the clock and acting is still judged by what it read.
import type { ClaimEvent, EndEvent, HistoryEvent, Workload } from '../history.js';
import type { Violation } from './check-result.js';

/** One hold: who, its fencing token if it has one, and what it claimed. */
export interface HoldSpan {
  /** `w<worker>:<hold id>`. */
  readonly key: string;
  readonly w: number;
  readonly hold: string;
  readonly token: bigint | undefined;
  /** First sound claim. */
  readonly start: number;
  /** Furthest sound claim end, cut at a voluntary end. */
  readonly end: number;
  /** Sound claims (for the report). */
  readonly claims: number;
  /** The voluntary end, if any. */
  readonly releasedAt: number | undefined;
}

/** Every hold of workload `wl` that made at least one sound claim, ordered by start. */
export function holdSpans(events: readonly HistoryEvent[], wl: Workload): HoldSpan[] {
  const claims = new Map<string, ClaimEvent[]>();
  const ends = new Map<string, EndEvent>();
  for (const event of events) {
    if (event.wl !== wl) continue;
    const key = `w${event.w}:${event.ev === 'claim' || event.ev === 'end' ? event.hold : ''}`;
    if (event.ev === 'claim') {
      const list = claims.get(key) ?? [];
      list.push(event);
      claims.set(key, list);
    } else if (event.ev === 'end' && !ends.has(key)) {
      ends.set(key, event);
    }
  }
  const spans: HoldSpan[] = [];
  for (const [key, list] of claims) {
    const releasedAt = ends.get(key)?.t;
    let start = Infinity;
    let end = -Infinity;
    let sound = 0;
    let token: bigint | undefined;
    for (const claim of list) {
      if (claim.token !== undefined) token ??= BigInt(claim.token);
      if (claim.vu === null || claim.vu <= claim.t) continue;
      if (releasedAt !== undefined && claim.t >= releasedAt) continue;
      const until = releasedAt === undefined ? claim.vu : Math.min(claim.vu, releasedAt);
      sound += 1;
      start = Math.min(start, claim.t);
      end = Math.max(end, until);
    }
    const first = list[0];
    if (sound === 0 || first === undefined) continue;
    spans.push({ key, w: first.w, hold: first.hold, token, start, end, claims: sound, releasedAt });
  }
  return spans.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Pairs of holds whose sound spans overlap. */
export function overlaps(spans: readonly HoldSpan[]): Violation[] {
  const violations: Violation[] = [];
  // Sweep in start order, keeping the open span that reaches furthest.
  let open: HoldSpan | undefined;
  for (const span of spans) {
    if (open !== undefined && span.start < open.end) {
      violations.push({
        message: `two sound holds overlap for ${(Math.min(open.end, span.end) - span.start).toFixed(1)} ms: ${open.key} (sound until ${open.end.toFixed(1)}) and ${span.key} (from ${span.start.toFixed(1)})`,
        details: { earlier: describe(open), later: describe(span) },
      });
    }
    if (open === undefined || span.end > open.end) open = span;
  }
  return violations;
}

/** Holds, in start order, whose token is not greater than the one before. */
export function tokenRegressions(spans: readonly HoldSpan[]): Violation[] {
  const violations: Violation[] = [];
  let previous: HoldSpan | undefined;
  for (const span of spans) {
    if (span.token === undefined) continue;
    if (previous?.token !== undefined && span.token <= previous.token) {
      violations.push({
        message: `fencing token did not grow: ${previous.key} had ${previous.token}, the next hold ${span.key} has ${span.token}`,
        details: { earlier: describe(previous), later: describe(span) },
      });
    }
    previous = span;
  }
  return violations;
}

function describe(span: HoldSpan): object {
  return {
    worker: span.w,
    hold: span.hold,
    token: span.token?.toString(),
    soundFrom: span.start,
    soundUntil: span.end,
    releasedAt: span.releasedAt,
    claims: span.claims,
  };
}

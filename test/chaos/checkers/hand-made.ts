// Builders of hand-made histories for the checkers' unit tests: the lines a worker would have
// written, without the worker.
import type { HistoryEvent, Outcome, Workload } from '../history.js';

/** A claim of hold `hold` by worker `w` at `t`, sound until `vu` (null: not sound). */
export function claim(
  wl: Workload,
  w: number,
  hold: string,
  t: number,
  vu: number | null,
  token?: number,
): HistoryEvent {
  return {
    t,
    w,
    inc: 1,
    wl,
    ev: 'claim',
    hold,
    vu,
    ...(token === undefined ? {} : { token: String(token) }),
  };
}

/** Worker `w` gives hold `hold` up at `t`. */
export function end(wl: Workload, w: number, hold: string, t: number): HistoryEvent {
  return { t, w, inc: 1, wl, ev: 'end', hold };
}

let nextId = 0;

/**
 * One call: its invoke at `invoke` and, unless `complete` is undefined (the process died),
 * its completion.
 */
export function call(
  wl: Workload,
  w: number,
  op: string,
  args: unknown,
  invoke: number,
  complete: number | undefined,
  outcome: Outcome,
  result?: unknown,
): HistoryEvent[] {
  nextId += 1;
  const id = `1.${nextId}`;
  const events: HistoryEvent[] = [{ t: invoke, w, inc: 1, wl, ev: 'invoke', id, op, args }];
  if (complete !== undefined) {
    events.push({ t: complete, w, inc: 1, wl, ev: outcome, id, result });
  }
  return events;
}

/** A consumer's take of `item` at `t`. */
export function take(w: number, item: string, t: number): HistoryEvent {
  return { t, w, inc: 1, wl: 'queue', ev: 'take', item };
}

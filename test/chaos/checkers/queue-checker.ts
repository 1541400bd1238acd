// The queue delivers every acknowledged item, once (DistributedQueue without a lock path,
// where taking an item removes it):
//  - lost: a put that succeeded whose item was never taken, and is not left in the queue;
//  - left: an item still in the queue when the run ended (the consumers stalled);
//  - duplicated: an item taken more than once, when its put was not ambiguous (only a put
//    that failed with an open outcome may have written its item twice, by a retry);
//  - never put: an item taken that no put was ever invoked for;
//  - failed put taken: an item taken whose put said it had no effect.
import { pairOps, type HistoryEvent } from '../history.js';
import type { CheckResult, Violation } from './check-result.js';

/** At most this many items are listed per kind of violation. */
const LISTED = 20;

export function checkQueue(
  events: readonly HistoryEvent[],
  leftInQueue: readonly string[],
): CheckResult {
  const puts = new Map<string, ReturnType<typeof pairOps>[number]>();
  for (const op of pairOps(events, 'queue')) {
    if (op.op !== 'put') continue;
    puts.set((op.args as { item: string }).item, op);
  }
  const takes = new Map<string, HistoryEvent[]>();
  for (const event of events) {
    if (event.wl !== 'queue' || event.ev !== 'take') continue;
    const list = takes.get(event.item) ?? [];
    list.push(event);
    takes.set(event.item, list);
  }
  const left = new Set(leftInQueue);
  const lost: string[] = [];
  const duplicated: string[] = [];
  const neverPut: string[] = [];
  const failedTaken: string[] = [];
  for (const [item, put] of puts) {
    const taken = takes.get(item)?.length ?? 0;
    if (put.outcome === 'ok' && taken === 0 && !left.has(item)) lost.push(item);
    if (taken > 1 && put.outcome !== 'unknown') duplicated.push(item);
    if (taken > 0 && put.outcome === 'fail') failedTaken.push(item);
  }
  for (const item of takes.keys()) if (!puts.has(item)) neverPut.push(item);
  const violations: Violation[] = [];
  const report = (items: string[], what: string): void => {
    if (items.length === 0) return;
    violations.push({
      message: `${items.length} ${what}: ${items.slice(0, 5).join(', ')}${items.length > 5 ? ', ...' : ''}`,
      details: items.slice(0, LISTED).map((item) => ({
        item,
        put: puts.get(item),
        takes: takes.get(item) ?? [],
        leftInQueue: left.has(item),
      })),
    });
  };
  report(lost, 'acknowledged items lost (put ok, never taken, not in the queue)');
  report(
    [...left].filter((item) => puts.has(item)),
    'items left in the queue at the end',
  );
  report(duplicated, 'items taken more than once though their put was not ambiguous');
  report(neverPut, 'items taken that were never put');
  report(failedTaken, 'items taken whose put had failed');
  const ambiguous = [...puts.values()].filter((op) => op.outcome === 'unknown').length;
  const takenTotal = [...takes.values()].reduce((sum, list) => sum + list.length, 0);
  return {
    checker: 'queue',
    ops: puts.size + takenTotal,
    violations,
    summary: `${puts.size} puts (${ambiguous} ambiguous), ${takenTotal} takes; lost ${lost.length}, duplicated ${duplicated.length}, never put ${neverPut.length}, left ${left.size}`,
  };
}

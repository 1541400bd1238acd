// At most one leader: no two sound leaderships overlap (see exclusive-holds.ts for the rule).
// LeaderLatch ('leader'): a leadership is one latch node of one worker while it leads.
// LeaderSelector ('selector'): a leadership is one takeLeadership call.
import type { HistoryEvent } from '../history.js';
import type { CheckResult } from './check-result.js';
import { holdSpans, overlaps } from './exclusive-holds.js';

export function checkLeader(
  events: readonly HistoryEvent[],
  wl: 'leader' | 'selector' = 'leader',
): CheckResult {
  const spans = holdSpans(events, wl);
  return {
    checker: wl === 'leader' ? 'leader:LeaderLatch' : 'leader:LeaderSelector',
    ops: spans.length,
    violations: overlaps(spans),
    summary: `${spans.length} sound leaderships`,
  };
}

// At most one leader (LeaderLatch): no two sound leaderships overlap. A leadership is one
// latch node of one worker while it leads; see exclusive-holds.ts for the rule.
import type { HistoryEvent } from '../history.js';
import type { CheckResult } from './check-result.js';
import { holdSpans, overlaps } from './exclusive-holds.js';

export function checkLeader(events: readonly HistoryEvent[]): CheckResult {
  const spans = holdSpans(events, 'leader');
  return {
    checker: 'leader',
    ops: spans.length,
    violations: overlaps(spans),
    summary: `${spans.length} sound leaderships`,
  };
}

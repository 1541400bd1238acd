// Mutual exclusion with fencing tokens (InterProcessMutex): no two sound holds overlap, and
// tokens strictly increase from one hold to the next. See exclusive-holds.ts for the rule.
import type { HistoryEvent } from '../history.js';
import type { CheckResult } from './check-result.js';
import { holdSpans, overlaps, tokenRegressions } from './exclusive-holds.js';

export function checkMutex(events: readonly HistoryEvent[]): CheckResult {
  const spans = holdSpans(events, 'mutex');
  const violations = [...overlaps(spans), ...tokenRegressions(spans)];
  return {
    checker: 'mutex',
    ops: spans.length,
    violations,
    summary: `${spans.length} sound holds`,
  };
}

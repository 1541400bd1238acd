// The cache converges: once the faults stop and the writers are quiet, a PathChildrenCache's
// view equals the server's children: same names, same data, same version.

import type { CheckResult, Violation } from './check-result.js';

/** One child as a view holds it. */
export interface ChildView {
  readonly name: string;
  readonly data: string;
  readonly version: number;
}

/** The differences between the cache's view and the server's (empty when they agree). */
export function diffViews(cache: readonly ChildView[], server: readonly ChildView[]): string[] {
  const mine = new Map(cache.map((child) => [child.name, child]));
  const theirs = new Map(server.map((child) => [child.name, child]));
  const diffs: string[] = [];
  for (const [name, child] of theirs) {
    const cached = mine.get(name);
    if (cached === undefined) diffs.push(`missing from the cache: ${name} (v${child.version})`);
    else if (cached.version !== child.version || cached.data !== child.data) {
      diffs.push(
        `stale in the cache: ${name} cached v${cached.version} ${JSON.stringify(cached.data)}, server v${child.version} ${JSON.stringify(child.data)}`,
      );
    }
  }
  for (const name of mine.keys()) {
    if (!theirs.has(name)) diffs.push(`in the cache but not on the server: ${name}`);
  }
  return diffs.sort();
}

/**
 * The verdict on the last comparison the runner made (it compares until they agree or its
 * settle time runs out). `cache` undefined: the cache worker never answered.
 */
export function checkCache(
  cache: readonly ChildView[] | undefined,
  server: readonly ChildView[],
  events: number,
): CheckResult {
  const violations: Violation[] = [];
  if (cache === undefined) {
    violations.push({ message: 'the cache worker did not report its view', details: {} });
  } else {
    const diffs = diffViews(cache, server);
    if (diffs.length > 0) {
      violations.push({
        message: `the cache did not converge: ${diffs.length} differences, e.g. ${diffs[0]}`,
        details: { diffs, cache, server },
      });
    }
  }
  return {
    checker: 'cache',
    ops: events,
    violations,
    summary: `${server.length} children on the server, ${cache?.length ?? '-'} in the cache`,
  };
}

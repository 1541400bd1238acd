// LeaderLatch: `latch-` nodes (usually protected) carrying the participant id; the lowest
// sequence leads. Sorting is wrap-aware like every sequence sort in zkrecipes.
import { compareSequenceWrapping, sequenceSuffix } from '@zkrecipes/framework';
import type { InspectionBase, LeaderLatchInspection } from './inspection.js';
import { nodeView } from './node-view.js';
import type { Znode } from './znode.js';

/** Curator's LeaderLatch node name. */
export const LATCH_MARKER = 'latch-';

/** The sequence after the last `latch-` in a name, or undefined for a foreign name. */
export function latchSequence(name: string): number | undefined {
  const at = name.lastIndexOf(LATCH_MARKER);
  return at < 0 ? undefined : sequenceSuffix(name.slice(at), { prefix: LATCH_MARKER });
}

/** Decodes a LeaderLatch path. */
export function decodeLeaderLatch(
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  nodes: readonly Znode[],
  now: number,
): LeaderLatchInspection {
  const keyed = nodes.flatMap((node) => {
    const sequence = latchSequence(node.name);
    return sequence === undefined ? [] : [{ node, sequence }];
  });
  keyed.sort((a, b) => compareSequenceWrapping(a.sequence, b.sequence));
  const kept = new Set(keyed.map(({ node }) => node.name));
  const participants = keyed.map(({ node }) => nodeView(node, now));
  return {
    ...base,
    kind: 'leader-latch',
    recipe: 'LeaderLatch',
    ignored: nodes.map((node) => node.name).filter((name) => !kept.has(name)),
    leader: participants[0],
    participants,
  };
}

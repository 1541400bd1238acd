// The one "did you mean" of the packages: createFramework's options and every recipe's options
// suggest a known name for a misspelt one the same way.

/** The shortest name a prefix match is trusted for: `tim` is too little to go on. */
const MIN_PREFIX_LENGTH = 4;

/**
 * The known name `name` most likely misspells, or undefined when none is close. Case is ignored
 * (`lockdata` -> `lockData`). Close means within an edit distance that grows with the name's
 * length, a third of it and at least 1, counting a swap of two neighbours as one edit
 * (`conectString` -> `connectString`, `sginal` -> `signal`); failing that, one name starting
 * with the other (`pipeline` -> `pipelineRelease`). The nearest wins; ties go to the earlier
 * known name.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const typed = name.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const option of known) {
    const distance = editDistance(typed, option.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = option;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  return known.find((option) => {
    const candidate = option.toLowerCase();
    const [shorter, longer] =
      candidate.length < typed.length ? [candidate, typed] : [typed, candidate];
    return shorter.length >= MIN_PREFIX_LENGTH && longer.startsWith(shorter);
  });
}

/**
 * The optimal-string-alignment distance of two short strings: insertions, deletions,
 * substitutions and swaps of adjacent characters each count 1 (a swap is the commonest typo,
 * which plain Levenshtein counts twice).
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance of a's first i characters to b's first j.
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      }
      row.push(distance);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

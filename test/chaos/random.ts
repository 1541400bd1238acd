// The one source of randomness of a chaos run: a seeded PRNG (sfc32), so a seed replays the
// same fault schedule and the same workload choices. Each consumer draws from its own stream
// (`seededRandom(seed, 'schedule')`, `seededRandom(seed, 'worker-2.1')`), so adding a draw in
// one place does not shift every other.

/** Draws from one seeded stream. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One of `items`, uniformly. Throws on an empty list. */
  pick<T>(items: readonly T[]): T;
  /** One of `choices`, with probability proportional to its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
}

/** A 32-bit hash of `text` (xmur3's mixer), to turn a seed and a stream name into state. */
function hash32(text: string): number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The stream `stream` of `seed`: same arguments, same draws, on every machine. */
export function seededRandom(seed: number, stream = ''): Random {
  let a = hash32(`${seed}/a/${stream}`);
  let b = hash32(`${seed}/b/${stream}`);
  let c = hash32(`${seed}/c/${stream}`);
  let d = 1;
  const next = (): number => {
    // sfc32
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
      let draw = next() * total;
      for (const [value, weight] of choices) {
        draw -= weight;
        if (draw < 0) return value;
      }
      const last = choices[choices.length - 1];
      if (last === undefined) throw new Error('weighted pick from an empty list');
      return last[0];
    },
  };
  return random;
}

/** A fresh seed when none is given: a 31-bit integer, easy to type back in. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

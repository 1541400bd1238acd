// The fault schedule: drawn entirely from the seed before the run starts, so a seed replays
// the same faults at the same offsets against the same targets. Which link a worker is using,
// or which ZooKeeper leads, is only known when a fault fires; the schedule names the worker
// (and a server to fall back on), the runner resolves the rest and logs it.
import { seededRandom } from './random.js';

export type FaultKind =
  | 'blackhole-link'
  | 'partition-worker'
  | 'reset-link'
  | 'lose-reply'
  | 'sigstop'
  | 'sigkill'
  | 'kill-zk-leader'
  | 'kill-zk-follower';

/** What a lost reply aims at: the next write of any kind, or the next one under a path. */
export type LoseReplyTarget = 'any-write' | 'count' | 'along' | 'queue' | 'mutex';

export interface Fault {
  /** Position in the schedule, from 1. */
  readonly n: number;
  /** Milliseconds after the faults phase began. */
  readonly atMs: number;
  readonly kind: FaultKind;
  /** The worker hit (worker faults). */
  readonly worker?: number;
  /** The server whose link is hit when the worker has no connection open (link faults). */
  readonly server?: number;
  /** How long the fault lasts before it is healed (blackholes, resets, stops, ZK downtime). */
  readonly durationMs?: number;
  /** For blackholes, partitions and stops: shorter or longer than the worker's session. */
  readonly length?: 'short' | 'long';
  readonly target?: LoseReplyTarget;
  /** kill-zk-follower: which of the two followers (in index order). */
  readonly follower?: 0 | 1;
}

export interface ScheduleOptions {
  readonly seed: number;
  /** Faults start within this many milliseconds. */
  readonly durationMs: number;
  readonly workers: number;
  /** Workers that may be SIGKILLed. */
  readonly killable: readonly number[];
  /** The session timeout of each worker, by index. */
  readonly sessionTimeoutMs: (worker: number) => number;
  /** Gap between two fault starts. Default 2000-5000 ms. */
  readonly gapMs?: readonly [number, number];
}

const WEIGHTS: readonly (readonly [FaultKind, number])[] = [
  ['blackhole-link', 2],
  ['partition-worker', 2],
  ['reset-link', 2],
  ['lose-reply', 3],
  ['sigstop', 1.5],
  ['sigkill', 1.5],
  ['kill-zk-leader', 1],
  ['kill-zk-follower', 1],
];

/** The schedule of `options.seed`: same options, same list. */
export function makeSchedule(options: ScheduleOptions): Fault[] {
  const random = seededRandom(options.seed, 'schedule');
  const [minGap, maxGap] = options.gapMs ?? [2000, 5000];
  const faults: Fault[] = [];
  let atMs = random.between(1000, 2000);
  while (atMs < options.durationMs) {
    const kind = random.weighted(WEIGHTS);
    const n = faults.length + 1;
    const worker = random.int(0, options.workers - 1);
    const session = options.sessionTimeoutMs(worker);
    const server = random.int(0, 2);
    const long = random.chance(0.5);
    const outlast = (): number => Math.round(session + random.between(500, 2500));
    const within = (): number => Math.round(random.between(0.2, 0.6) * session);
    switch (kind) {
      case 'blackhole-link':
      case 'partition-worker':
        faults.push({
          n,
          atMs,
          kind,
          worker,
          server,
          length: long ? 'long' : 'short',
          durationMs: long ? outlast() : within(),
        });
        break;
      case 'reset-link':
        faults.push({ n, atMs, kind, worker, server, durationMs: random.int(20, 400) });
        break;
      case 'lose-reply':
        faults.push({
          n,
          atMs,
          kind,
          worker,
          server,
          target: random.pick(['any-write', 'count', 'along', 'queue', 'mutex'] as const),
        });
        break;
      case 'sigstop':
        faults.push({ n, atMs, kind, worker, length: 'long', durationMs: outlast() });
        break;
      case 'sigkill':
        faults.push({
          n,
          atMs,
          kind,
          worker: random.pick(options.killable),
          durationMs: random.int(200, 1500),
        });
        break;
      case 'kill-zk-leader':
        faults.push({ n, atMs, kind, durationMs: random.int(500, 3000) });
        break;
      case 'kill-zk-follower':
        faults.push({
          n,
          atMs,
          kind,
          durationMs: random.int(500, 3000),
          follower: random.chance(0.5) ? 1 : 0,
        });
        break;
    }
    atMs += random.between(minGap, maxGap);
  }
  return faults;
}

/** One line per fault, for the console and the run directory. */
export function describeFault(fault: Fault): string {
  const parts = [`#${fault.n}`, `+${(fault.atMs / 1000).toFixed(1)}s`, fault.kind];
  if (fault.length !== undefined) parts.push(fault.length);
  if (fault.worker !== undefined) parts.push(`worker ${fault.worker}`);
  if (fault.target !== undefined) parts.push(`next ${fault.target}`);
  if (fault.follower !== undefined) parts.push(`follower ${fault.follower}`);
  if (fault.durationMs !== undefined) parts.push(`${fault.durationMs} ms`);
  return parts.join(' ');
}

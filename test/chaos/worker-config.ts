// What the runner tells a worker process (as its one argument, JSON) and the messages they
// exchange over the IPC channel.
import type { ChildView } from './checkers/cache-checker.js';

/** The znodes of one run, all under its own root. */
export interface ChaosPaths {
  readonly root: string;
  readonly mutex: string;
  readonly leader: string;
  readonly selector: string;
  /** SharedCount: 4 bytes, starts at 0. */
  readonly count: string;
  /** DistributedAtomicLong: 8 bytes, starts at 0. */
  readonly along: string;
  readonly queue: string;
  readonly cache: string;
}

export function chaosPaths(root: string): ChaosPaths {
  return {
    root,
    mutex: `${root}/mutex`,
    leader: `${root}/leader`,
    selector: `${root}/selector`,
    count: `${root}/count`,
    along: `${root}/along`,
    queue: `${root}/queue`,
    cache: `${root}/cache`,
  };
}

export interface WorkerConfig {
  readonly index: number;
  readonly incarnation: number;
  readonly seed: number;
  /** The worker's three proxies, comma-separated. */
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  readonly runDir: string;
  readonly paths: ChaosPaths;
  /** This worker consumes the queue (and is therefore never SIGKILLed). */
  readonly consumer: boolean;
  /** This worker keeps the PathChildrenCache that is checked at the end. */
  readonly cache: boolean;
  /** Average pause between two counter ops of this worker, per counter. */
  readonly counterIntervalMs: number;
}

/** Runner to worker. */
export type WorkerRequest =
  | { readonly type: 'status'; readonly reqId: number }
  | { readonly type: 'quiesce'; readonly reqId: number }
  | { readonly type: 'view'; readonly reqId: number }
  | { readonly type: 'finish'; readonly reqId: number };

/** Worker to runner: `ready` once, then one reply per request. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'status'; readonly reqId: number; readonly connected: boolean }
  | { readonly type: 'quiesce'; readonly reqId: number }
  | {
      readonly type: 'view';
      readonly reqId: number;
      readonly view: readonly ChildView[] | undefined;
      readonly events: number;
    }
  | { readonly type: 'finish'; readonly reqId: number };

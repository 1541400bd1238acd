/**
 * The in-process coordination the peer does with CountDownLatch, CyclicBarrier, BlockingQueue
 * and a worker pool, for async workers. Every wait carries the hang guard.
 */
import { HANG_GUARD_MS, hangGuard } from './bench-context.js';
import { Samples } from './samples.js';

/** A promise with its resolve function outside. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
} {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** CountDownLatch: `wait` resolves once `countDown` ran `count` times. */
export class Latch {
  #count: number;
  readonly #done = deferred();

  constructor(count: number) {
    this.#count = count;
    if (count <= 0) this.#done.resolve();
  }

  get count(): number {
    return this.#count;
  }

  countDown(): void {
    if (this.#count <= 0) return;
    this.#count -= 1;
    if (this.#count === 0) this.#done.resolve();
  }

  /** Resolves true when the count reached 0, false after `timeoutMs`. */
  async waitFor(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([this.#done.promise.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits under the hang guard; rejects with `what` and the outstanding count otherwise. */
  async wait(what: string): Promise<void> {
    if (!(await this.waitFor(HANG_GUARD_MS))) {
      throw new Error(`timed out waiting for ${what} (${this.#count} outstanding)`);
    }
  }
}

/** A FIFO mailbox (the peer's LinkedBlockingQueue): `take` waits for the next value. */
export class Mailbox<T> {
  readonly #values: T[] = [];
  readonly #waiters: ((value: T) => void)[] = [];

  push(value: T): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) this.#values.push(value);
    else waiter(value);
  }

  take(what: string): Promise<T> {
    if (this.#values.length > 0) return Promise.resolve(this.#values.shift() as T);
    const next = deferred<T>();
    this.#waiters.push(next.resolve);
    return hangGuard(next.promise, `waiting for ${what}`);
  }
}

/**
 * CyclicBarrier for `parties` async workers: the last to arrive runs `action`, then all go on.
 * Reusable round after round.
 */
export class RoundGate {
  readonly #parties: number;
  readonly #action: () => void;
  #arrived = 0;
  #open = deferred();

  constructor(parties: number, action: () => void) {
    this.#parties = parties;
    this.#action = action;
  }

  arrive(): Promise<void> {
    const gate = this.#open;
    this.#arrived += 1;
    if (this.#arrived === this.#parties) {
      this.#arrived = 0;
      this.#open = deferred();
      this.#action();
      gate.resolve();
    }
    return hangGuard(gate.promise, 'the other members at the round gate');
  }
}

/**
 * Runs `count` async workers, starts them at the same instant and waits for all (the peer's
 * runTogether). Returns ms from the start to the moment the last worker finished.
 */
export async function runTogether(
  count: number,
  worker: (index: number) => Promise<void>,
): Promise<number> {
  const go = deferred();
  let lastFinish = 0;
  const workers = Array.from({ length: count }, async (_, index) => {
    await go.promise;
    await worker(index);
    lastFinish = Math.max(lastFinish, performance.now());
  });
  const start = performance.now();
  go.resolve();
  await Promise.all(workers);
  return lastFinish - start;
}

/** What {@link runCyclesTogether} measured. */
export interface CycleRun {
  /** One sample per cycle, in ms. */
  readonly samples: Samples;
  /** From the start to the moment the last worker finished. */
  readonly elapsedMs: number;
  /** This process's CPU (user + system, every thread) per cycle, in microseconds. */
  readonly cpuUsPerCycle: number;
}

/**
 * {@link runTogether} with `perWorker` timed calls of `cycle` in each worker: a sample per
 * cycle, the wall time, and the CPU this process spent per cycle.
 */
export async function runCyclesTogether(
  count: number,
  perWorker: number,
  cycle: (index: number) => Promise<void>,
): Promise<CycleRun> {
  const samples = new Samples();
  const cpuBefore = process.cpuUsage();
  const elapsedMs = await runTogether(count, async (index) => {
    for (let i = 0; i < perWorker; i += 1) {
      const t0 = performance.now();
      await cycle(index);
      samples.add(performance.now() - t0);
    }
  });
  const cpu = process.cpuUsage(cpuBefore);
  return { samples, elapsedMs, cpuUsPerCycle: (cpu.user + cpu.system) / (count * perWorker) };
}

/** n per second over `elapsedMs`. */
export function rate(n: number, elapsedMs: number): number {
  return n / (elapsedMs / 1000);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function utf8(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

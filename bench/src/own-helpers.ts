/**
 * Our own abort and timer helpers against the Node built-ins they stand in for:
 * `node bench/dist/src/own-helpers.js [--rounds N]`. No server: each case times the helper's own
 * work (CPU time of this process, median of the rounds, the sides alternating) at the scale the framework
 * meets it, and prints one line per side. docs/benchmarks.md ("Own helpers kept, and why") holds
 * the numbers that decided which helper stays.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { addAbortListener } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  abortableSleep,
  Deadline,
  LookOnceSignal,
  onAbort,
  Wake,
} from '@zkrecipes/framework/recipe-support';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, case: { type: 'string' } },
});
const rounds = Number(values.rounds);

type Side = readonly [name: string, run: () => unknown];

function median(samples: readonly number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

/** Runs each side `rounds` times, alternating, and prints the median per side in `unit`. */
async function compare(title: string, perOp: number, unit: 'ms' | 'ns', sides: Side[]) {
  const samples = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, [, run]] of sides.entries()) {
      gc();
      const start = process.cpuUsage();
      await run();
      const used = process.cpuUsage(start);
      const elapsedMs = (used.user + used.system) / 1000;
      samples[index]!.push(unit === 'ms' ? elapsedMs : (elapsedMs * 1e6) / perOp);
    }
  }
  process.stdout.write(`${title}\n`);
  for (const [index, [name]] of sides.entries()) {
    const value = median(samples[index]!);
    process.stdout.write(`  ${name.padEnd(58)} ${value.toFixed(unit === 'ms' ? 1 : 0)} ${unit}\n`);
  }
}

/** Heap growth (MB, after a GC) left by `run`, while `keep` is alive. */
async function retainedMb(run: () => unknown): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  await run();
  gc();
  return (process.memoryUsage().heapUsed - before) / 1e6;
}

/**
 * The shared deadline sweep the framework used before a timer per request (a Set entry per
 * deadline and one unref'd interval while any is due), kept here to compare.
 */
class DueSweep {
  readonly #due = new Set<{ readonly atMs: number; readonly onDue: () => void }>();
  readonly #sweepMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(sweepMs: number) {
    this.#sweepMs = sweepMs;
  }

  after(delayMs: number, onDue: () => void): () => void {
    const due = { atMs: performance.now() + delayMs, onDue };
    this.#due.add(due);
    this.#timer ??= setInterval(() => this.#sweep(), this.#sweepMs).unref();
    return () => this.#due.delete(due);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#due.clear();
  }

  #sweep(): void {
    for (const due of this.#due) {
      if (due.atMs > performance.now()) continue;
      this.#due.delete(due);
      due.onDue();
    }
  }
}

/** Each case runs in a process of its own: timers and signals one leaves behind would tax the next. */
const cases: Record<string, () => Promise<void>> = {
  // 1. n waits on one signal (every request in flight listens to the client's close), each
  // added, then all removed as their requests end.
  waits: async () => {
    for (const n of [1_000, 16_000]) {
      const closing = new AbortController().signal;
      // A listener of its own per wait, as each request has (EventTarget keeps one of duplicates).
      await compare(`${n} waits on one signal, added then removed`, n, 'ms', [
        [
          'addEventListener / removeEventListener',
          () => {
            const listeners = Array.from({ length: n }, () => () => {});
            for (const each of listeners) closing.addEventListener('abort', each, { once: true });
            for (const each of listeners) closing.removeEventListener('abort', each);
          },
        ],
        [
          'events.addAbortListener / dispose',
          () => {
            const handles = Array.from({ length: n }, () => addAbortListener(closing, () => {}));
            for (const handle of handles) handle[Symbol.dispose]();
          },
        ],
        [
          'onAbort / stop',
          () => {
            const stops = Array.from({ length: n }, () => onAbort(closing, () => {}));
            for (const stop of stops) stop();
          },
        ],
      ]);
    }
  },

  // 2. n retry sleeps at once on the client's close (every request of an outage backing off).
  sleeps: async () => {
    const n = 16_000;
    const closing = new AbortController().signal;
    await compare(`${n} concurrent 1 ms sleeps on one signal`, n, 'ms', [
      [
        'timers/promises setTimeout(1, _, { signal })',
        () =>
          Promise.all(Array.from({ length: n }, () => sleep(1, undefined, { signal: closing }))),
      ],
      [
        'abortableSleep(1, signal)',
        () => Promise.all(Array.from({ length: n }, () => abortableSleep(1, closing))),
      ],
    ]);
  },

  // 3. A deadline per request, cancelled by its answer (an AsyncLocalStorage in use, as with
  // OpenTelemetry).
  'request-deadline': async () => {
    const n = 200_000;
    const storage = new AsyncLocalStorage<number>();
    const sweep = new DueSweep(100);
    const noop = (): void => {};
    const inContext = (run: () => void) => () => storage.run(1, run);
    await compare('a request deadline, set then cancelled (AsyncLocalStorage on)', n, 'ns', [
      [
        'setTimeout / clearTimeout',
        inContext(() => {
          for (let i = 0; i < n; i++) clearTimeout(setTimeout(noop, 30_000).unref());
        }),
      ],
      [
        'DueSweep.after / cancel',
        inContext(() => {
          for (let i = 0; i < n; i++) sweep.after(30_000, noop)();
        }),
      ],
    ]);
    sweep.stop();
  },

  // 4. A look-once call's signal (acquire(0) in a loop): the connection's, or no answer in time.
  'look-once': async () => {
    const n = 50_000;
    const connection = new AbortController().signal;
    await compare('a look-once signal per call, no caller signal', n, 'ns', [
      [
        'AbortSignal.any([connection, AbortSignal.timeout(2000)])',
        () => {
          for (let i = 0; i < n; i++) AbortSignal.any([connection, AbortSignal.timeout(2_000)]);
        },
      ],
      [
        'new LookOnceSignal(connection, undefined, true)',
        () => {
          for (let i = 0; i < n; i++) {
            using look = new LookOnceSignal(connection, undefined, true);
            void look.signal;
          }
        },
      ],
    ]);
    const builtIn = await retainedMb(() => {
      for (let i = 0; i < n; i++) AbortSignal.any([connection, AbortSignal.timeout(2_000)]);
    });
    const own = await retainedMb(() => {
      for (let i = 0; i < n; i++) {
        using look = new LookOnceSignal(connection, undefined, true);
        void look.signal;
      }
    });
    process.stdout.write(
      `  heap left after ${n} calls: AbortSignal.any ${builtIn.toFixed(1)} MB, LookOnceSignal ${own.toFixed(1)} MB\n`,
    );
  },

  // 5. A call's deadline signal (a lock's acquire with a timeout, in a loop).
  'call-deadline': async () => {
    const n = 50_000;
    await compare('a call deadline signal, made then let go', n, 'ns', [
      [
        'AbortSignal.timeout(5000)',
        () => {
          for (let i = 0; i < n; i++) AbortSignal.timeout(5_000);
        },
      ],
      [
        'Deadline.of({ timeoutMs: 5000 }).signal',
        () => {
          for (let i = 0; i < n; i++) {
            using deadline = Deadline.of({ timeoutMs: 5_000 });
            void deadline.signal;
          }
        },
      ],
    ]);
    const caller = new AbortController().signal;
    await compare('a call deadline signal with a caller signal', n, 'ns', [
      [
        'AbortSignal.any([caller, AbortSignal.timeout(5000)])',
        () => {
          for (let i = 0; i < n; i++) AbortSignal.any([caller, AbortSignal.timeout(5_000)]);
        },
      ],
      [
        'Deadline.of({ timeoutMs: 5000, signal: caller }).signal',
        () => {
          for (let i = 0; i < n; i++) {
            using deadline = Deadline.of({ timeoutMs: 5_000, signal: caller });
            void deadline.signal;
          }
        },
      ],
    ]);
  },

  // A watched read's signal: the wake's own (cancelling it silences the watcher) and the call's.
  combine: async () => {
    const n = 50_000;
    const caller = new AbortController().signal;
    await compare("a watched read's signal: its wake's and the caller's", n, 'ns', [
      [
        'AbortSignal.any([wake, caller])',
        () => {
          for (let i = 0; i < n; i++) AbortSignal.any([new AbortController().signal, caller]);
        },
      ],
      [
        'new Wake().signalWith(caller), then cancel()',
        () => {
          for (let i = 0; i < n; i++) {
            const wake = new Wake();
            void wake.signalWith(caller);
            wake.cancel();
          }
        },
      ],
    ]);
  },
  // 6. Aborting a signal nobody waits on any more (a barrier silencing its watch at each step).
  abort: async () => {
    const n = 100_000;
    const reason = new DOMException('withdrawn', 'AbortError');
    await compare('an abort without a waiting listener', n, 'ns', [
      [
        'controller.abort()',
        () => {
          for (let i = 0; i < n; i++) new AbortController().abort();
        },
      ],
      [
        'controller.abort(WITHDRAWN)',
        () => {
          for (let i = 0; i < n; i++) new AbortController().abort(reason);
        },
      ],
    ]);
  },
};

if (values.case !== undefined) {
  await cases[values.case]!();
} else {
  for (const name of Object.keys(cases)) {
    const args = [process.argv[1]!, '--case', name, '--rounds', String(rounds)];
    spawnSync(process.execPath, args, { stdio: 'inherit' });
  }
}

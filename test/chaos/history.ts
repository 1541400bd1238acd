// What workers write and checkers read: one JSON object per line, one file per worker
// (`worker-<n>.jsonl` in the run directory; a restarted worker appends with the next
// incarnation number). Every line is written synchronously before the code it describes goes
// on, so a SIGKILL loses nothing that was already recorded; a line cut short by one is
// skipped by the reader.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { monoNow } from './clock.js';

/** The workload a line belongs to. */
export type Workload =
  'worker' | 'mutex' | 'leader' | 'selector' | 'count' | 'along' | 'queue' | 'cache';

/** How a call ended: ok (it answered), fail (it had no effect), unknown (it may have). */
export type Outcome = 'ok' | 'fail' | 'unknown';

interface Base {
  /** Milliseconds on the shared monotonic clock (clock.ts). */
  readonly t: number;
  /** Worker index. */
  readonly w: number;
  /** Incarnation: 1 for the first process of a worker, +1 after each restart. */
  readonly inc: number;
  readonly wl: Workload;
}

/** A call is about to be made. `id` is unique within the worker (incarnation-prefixed). */
export interface InvokeEvent extends Base {
  readonly ev: 'invoke';
  readonly id: string;
  readonly op: string;
  readonly args?: unknown;
}

/** The call `id` returned (`ok`, `fail`) or threw an error that leaves it open (`unknown`). */
export interface CompleteEvent extends Base {
  readonly ev: Outcome;
  readonly id: string;
  readonly result?: unknown;
  readonly error?: string;
}

/**
 * A holder acts on an exclusive hold (a lock, a leadership): at `t` it read that the hold is
 * sound until `vu` (shared clock; null when already not sound). `token` is the fencing token.
 */
export interface ClaimEvent extends Base {
  readonly ev: 'claim';
  readonly hold: string;
  readonly vu: number | null;
  readonly token?: string;
}

/** The holder gives the hold up on purpose (release, close): it makes no claim after `t`. */
export interface EndEvent extends Base {
  readonly ev: 'end';
  readonly hold: string;
}

/** A consumer got a queue item. */
export interface TakeEvent extends Base {
  readonly ev: 'take';
  readonly item: string;
  /** The queue node it came from. */
  readonly node?: string;
}

/** Anything else worth reading next to a failure: a start, a connection state. */
export interface NoteEvent extends Base {
  readonly ev: 'note';
  readonly what: string;
  readonly detail?: unknown;
}

export type HistoryEvent =
  InvokeEvent | CompleteEvent | ClaimEvent | EndEvent | TakeEvent | NoteEvent;

/** The parts of an event the writer fills in itself. */
type Fields<E> = E extends HistoryEvent ? Omit<E, 't' | 'w' | 'inc'> : never;

/** Appends one worker incarnation's events to its file, each line synchronously. */
export class HistoryWriter {
  readonly #fd: number;
  readonly #w: number;
  readonly #inc: number;
  #next = 0;
  #closed = false;

  constructor(file: string, w: number, inc: number) {
    this.#fd = openSync(file, 'a');
    this.#w = w;
    this.#inc = inc;
  }

  /** Writes `fields` stamped with now, this worker and this incarnation. */
  write(fields: Fields<HistoryEvent>): void {
    if (this.#closed) return;
    const event = { t: monoNow(), w: this.#w, inc: this.#inc, ...fields };
    writeSync(this.#fd, `${JSON.stringify(event)}\n`);
  }

  /** A new call id: `<incarnation>.<n>`. */
  nextId(): string {
    this.#next += 1;
    return `${this.#inc}.${this.#next}`;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }
}

/** The file of worker `w` in `runDir`. */
export function historyFile(runDir: string, w: number): string {
  return join(runDir, `worker-${w}.jsonl`);
}

/** Every event of every worker file in `runDir`, ordered by time; cut lines are counted. */
export function readHistories(runDir: string): { events: HistoryEvent[]; badLines: number } {
  const events: HistoryEvent[] = [];
  let badLines = 0;
  if (!existsSync(runDir)) return { events, badLines };
  for (const name of readdirSync(runDir).sort()) {
    if (!/^worker-\d+\.jsonl$/.test(name)) continue;
    for (const line of readFileSync(join(runDir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        events.push(JSON.parse(line) as HistoryEvent);
      } catch {
        badLines += 1;
      }
    }
  }
  events.sort((a, b) => a.t - b.t);
  return { events, badLines };
}

/** A call with its invoke and (if any) completion; a call with none completes at Infinity. */
export interface Op {
  readonly w: number;
  readonly inc: number;
  readonly wl: Workload;
  readonly id: string;
  readonly op: string;
  readonly args: unknown;
  readonly invoke: number;
  readonly complete: number;
  readonly outcome: Outcome;
  readonly result: unknown;
  readonly error: string | undefined;
}

/**
 * Pairs each invoke of workload `wl` with its completion. A call whose process died first has
 * no completion: its outcome is unknown and it completes at Infinity.
 */
export function pairOps(events: readonly HistoryEvent[], wl: Workload): Op[] {
  const completions = new Map<string, CompleteEvent>();
  for (const event of events) {
    if (event.wl === wl && (event.ev === 'ok' || event.ev === 'fail' || event.ev === 'unknown')) {
      completions.set(`${event.w}/${event.id}`, event);
    }
  }
  const ops: Op[] = [];
  for (const event of events) {
    if (event.wl !== wl || event.ev !== 'invoke') continue;
    const done = completions.get(`${event.w}/${event.id}`);
    ops.push({
      w: event.w,
      inc: event.inc,
      wl,
      id: event.id,
      op: event.op,
      args: event.args,
      invoke: event.t,
      complete: done?.t ?? Infinity,
      outcome: done?.ev ?? 'unknown',
      result: done?.result,
      error: done === undefined ? 'no completion (the process ended first)' : done.error,
    });
  }
  return ops;
}

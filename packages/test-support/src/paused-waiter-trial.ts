// A waiter stopped (SIGSTOP) in the middle of its wait, the fault behind "no stale grants": a
// child process queues for a lock or for leadership while this process holds it; while the
// child is stopped past its session timeout, the holder lets go (so the news of it waits in the
// child's socket), the server expires the child's session and a third participant here takes
// over. Then the child resumes. The first grant the child reports must be valid when it is
// made, and must not fall inside the third participant's hold. The recipe is the caller's: the
// child script and `participate` (this package depends on no recipe).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { createInterface } from 'node:readline';
import type { FrameworkClient } from '@zkrecipes/framework';
import { timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll } from './close-all.js';
import { connectedClient } from './connected-client.js';
import { BUSY_FOR_MS, type ChildGrant } from './paused-waiter-child.js';

/** A participant in this process: `held` resolves once it holds (or leads). */
export interface TrialHold {
  readonly held: Promise<unknown>;
  /** Gives the hold up (a release, the end of takeLeadership, a latch's close). */
  release(): Promise<void>;
}

/** Options of {@link pausedWaiterTrial}. */
export interface PausedWaiterTrialOptions {
  readonly connectString: string;
  /**
   * The child: a node script run with `connectString path sessionTimeoutMs ...childArgs`. It
   * queues for the recipe at `path`, calls `reportGrant` on its first grant, and exits
   * when its stdin ends.
   */
  readonly childScript: string;
  readonly childArgs?: readonly string[];
  /** Takes part in this process on `client` (queued behind any participant before it). */
  readonly participate: (client: FrameworkClient, path: string) => Promise<TrialHold>;
  /** The child's session timeout. Default 4000. */
  readonly sessionTimeoutMs?: number;
  /** How long the child stays stopped, at least (until the third participant holds). Default 6000. */
  readonly pauseMs?: number;
  /** When, into the pause, the holder lets go. Default 1000: the child's session still lives. */
  readonly releaseAfterMs?: number;
  /** How long the third participant keeps holding after the child resumes. Default 1500. */
  readonly holdAfterResumeMs?: number;
  /**
   * What the child is doing when it is stopped. 'busy' (the default): running its own code
   * (see `serveTrial`); 'idle': waiting for I/O, where a stop interrupts the wait and
   * libuv runs the due timers (the stall detector's among them) before it reads the socket.
   */
  readonly stopWhile?: 'busy' | 'idle';
}

/** What one trial saw; instants are `performance.timeOrigin + performance.now()`. */
export interface PausedWaiterTrial {
  readonly grant: ChildGrant;
  readonly resumedAt: number;
  /** The third participant's hold, from its grant to the call that gave it up. */
  readonly otherHeld: { readonly from: number; readonly to: number };
  /** Why the child's grant was stale; undefined when it was not. */
  readonly stale: string | undefined;
}

const wallNow = (): number => performance.timeOrigin + performance.now();

/**
 * Runs one trial under a unique path: holder and third participant on clients of this
 * process, the waiter in a child process that is stopped for the pause.
 */
export async function pausedWaiterTrial(
  options: PausedWaiterTrialOptions,
): Promise<PausedWaiterTrial> {
  const { sessionTimeoutMs = 4000, pauseMs = 6000, releaseAfterMs = 1000 } = options;
  const { holdAfterResumeMs = 1500 } = options;
  const path = uniquePath('paused-waiter');
  const clients = [
    await connectedClient(options.connectString),
    await connectedClient(options.connectString),
  ];
  const [holderClient, otherClient] = clients as [FrameworkClient, FrameworkClient];
  const count = async (): Promise<number> =>
    (await holderClient.getChildren(path).catch(() => [])).length;
  const holds: TrialHold[] = [];
  let child: ChildProcessByStdio<Writable, Readable, null> | undefined;
  try {
    const holder = once(await options.participate(holderClient, path));
    holds.push(holder);
    child = spawn(
      process.execPath,
      [
        options.childScript,
        options.connectString,
        path,
        String(sessionTimeoutMs),
        ...(options.childArgs ?? []),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const messages = new ChildMessages(child.stdout);
    const grant = messages.first<ChildGrant>('granted');
    grant.catch(() => undefined); // awaited below; a failure before then is the trial's
    await holder.held;
    // A node process starting up, beside the other trials' (and a loaded machine's) work.
    await waitFor(async () => (await count()) === 2, {
      message: 'the child queued',
      timeoutMs: 30_000,
    });
    const other = once(await options.participate(otherClient, path));
    holds.push(other);
    await waitFor(async () => (await count()) === 3, { message: 'the third participant queued' });
    if (options.stopWhile !== 'idle') {
      child.stdin.write('busy\n');
      await within(messages.first('busy'), 5000, 'the child did not start working');
      await delay(BUSY_FOR_MS / 5); // into the work, not at its start
    }
    const stoppedAt = performance.now();
    child.kill('SIGSTOP');
    await delay(releaseAfterMs);
    await holder.release();
    // The child's session ends on the server, its node with it: the third participant holds.
    await within(
      other.held,
      pauseMs + 10_000,
      'the third participant never held: the child session did not expire',
    );
    const from = wallNow();
    await delay(Math.max(0, pauseMs - (performance.now() - stoppedAt)));
    child.kill('SIGCONT');
    const resumedAt = wallNow();
    await delay(holdAfterResumeMs);
    const to = wallNow();
    await other.release();
    const granted = await within(grant, 20_000, 'the child reported no grant in time');
    return {
      grant: granted,
      resumedAt,
      otherHeld: { from, to },
      stale: staleness(granted, from, to),
    };
  } finally {
    child?.kill('SIGKILL'); // works on a stopped process too
    await closeAll(holds.map((hold) => ({ close: () => hold.release() })));
    await closeAll(clients);
  }
}

/** `promise`, or a rejection naming `what` once `ms` (scaled) passed first. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const timer = new AbortController();
  const timedOut = delay(timing.ms(ms), undefined, { signal: timer.signal }).then(() => {
    throw new Error(`${what} (${timing.ms(ms)} ms)`);
  });
  timedOut.catch(() => undefined); // its abort below is no failure
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    timer.abort();
  }
}

/** Why `grant` is stale, given the third participant's hold [from, to). */
function staleness(grant: ChildGrant, from: number, to: number): string | undefined {
  if (!grant.valid) return `granted with isValid() false (valid until ${-grant.validForMs} ms ago)`;
  if (grant.at >= from && grant.at < to) {
    return `granted ${Math.round(grant.at - from)} ms into another participant's valid hold`;
  }
  return undefined;
}

/** `hold` whose release gives it up once (the cleanup calls it again). */
function once(hold: TrialHold): TrialHold {
  let released: Promise<void> | undefined;
  return { held: hold.held, release: () => (released ??= hold.release()) };
}

/** A line of the child's as a message; undefined for anything else it printed. */
function parseLine(line: string): { readonly type: string } | undefined {
  try {
    const message = JSON.parse(line) as { readonly type?: unknown } | null;
    return typeof message?.type === 'string' ? (message as { type: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** The child's JSON lines, by type. */
class ChildMessages {
  readonly #seen = new Map<string, unknown>();
  readonly #waiting = new Map<string, (message: unknown) => void>();
  #ended = false;
  readonly #ends = new Set<(error: Error) => void>();

  constructor(stdout: NodeJS.ReadableStream) {
    const lines = createInterface({ input: stdout });
    lines.on('line', (line) => {
      const message = parseLine(line);
      if (message === undefined || this.#seen.has(message.type)) return;
      this.#seen.set(message.type, message);
      this.#waiting.get(message.type)?.(message);
    });
    lines.on('close', () => {
      this.#ended = true;
      for (const end of this.#ends) end(new Error('the child ended before it said that'));
    });
  }

  /** The first line of `type`, said already or to come; rejects if the child ends first. */
  first<T>(type: string): Promise<T> {
    if (this.#seen.has(type)) return Promise.resolve(this.#seen.get(type) as T);
    if (this.#ended) return Promise.reject(new Error('the child ended before it said that'));
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(type, (message) => resolve(message as T));
      this.#ends.add(reject);
    });
  }
}

/**
 * Runs `trials` trials of `options`, at most `concurrency` at a time (each waits out its pause:
 * they mostly sleep).
 */
export async function pausedWaiterTrials(
  options: PausedWaiterTrialOptions,
  trials: number,
  concurrency = 5,
): Promise<PausedWaiterTrial[]> {
  const results: PausedWaiterTrial[] = [];
  for (let started = 0; started < trials; started += concurrency) {
    const batch = Math.min(concurrency, trials - started);
    results.push(
      ...(await Promise.all(Array.from({ length: batch }, () => pausedWaiterTrial(options)))),
    );
  }
  return results;
}

/**
 * How many trials the paused-waiter tests run: `ZK_PAUSED_WAITER_TRIALS`, else `fallback` (the
 * committed tests run few, to stay quick; run 20 by hand).
 */
export function pausedWaiterTrialCount(fallback: number): number {
  const value = Number(process.env.ZK_PAUSED_WAITER_TRIALS ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`ZK_PAUSED_WAITER_TRIALS must be a whole number >= 1; got ${value}`);
  }
  return value;
}

/** One line for a test's diagnostic: how many were stale, and each grant's validity and timing. */
export function describeTrials(results: readonly PausedWaiterTrial[]): string {
  const stale = results.filter((trial) => trial.stale !== undefined).length;
  const each = results.map(
    ({ grant, resumedAt }) =>
      `${grant.valid ? 'valid' : 'INVALID'} ${Math.round(grant.at - resumedAt)} ms after resume (validFor ${grant.validForMs} ms)`,
  );
  return `${stale} of ${results.length} stale: ${each.join('; ')}`;
}

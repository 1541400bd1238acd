// Shared test helpers: the overlap witness, contenders, and a deferred for hand-made waits.
import type { FrameworkClient } from '@zkrecipes/framework';
import { LeaderSelector } from '../src/leader-selector.js';
import { waitFor } from '@zkrecipes/testing';

/**
 * The invariant checker of the election tests: at most one leader at any instant. Leaders
 * call `enter` as their leadership starts and `exit` as it ends; an overlap is recorded.
 */
export class LeaderWitness {
  readonly violations: string[] = [];
  readonly leaders: string[] = [];
  #current: string | undefined;

  enter(who: string): void {
    if (this.#current !== undefined) {
      this.violations.push(`${who} became leader while ${this.#current} still led`);
    }
    this.#current = who;
    this.leaders.push(who);
  }

  exit(who: string): void {
    if (this.#current === who) this.#current = undefined;
  }

  get current(): string | undefined {
    return this.#current;
  }
}

/** A promise with its resolve function, for waits the test itself releases. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves when `signal` aborts, with its reason. */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

/** A participant whose takeLeadership holds until released (or aborted). */
export interface Contender {
  readonly selector: LeaderSelector;
  /** Ends the current leadership, if this one leads. */
  release(): void;
  /** Leadership entries, with their performance.now() time. */
  readonly entries: number[];
  /** The reasons its signals aborted with. */
  readonly abortReasons: unknown[];
}

export function contender(
  client: FrameworkClient,
  path: string,
  id: string,
  witness: LeaderWitness,
  options: { autoRequeue?: boolean; ignoreSignal?: boolean } = {},
): Contender {
  let release = (): void => undefined;
  const entries: number[] = [];
  const abortReasons: unknown[] = [];
  const selector = new LeaderSelector(
    client,
    path,
    async (signal) => {
      entries.push(performance.now());
      witness.enter(id);
      const released = deferred();
      release = released.resolve;
      signal.addEventListener('abort', () => abortReasons.push(signal.reason), { once: true });
      await (options.ignoreSignal === true
        ? released.promise
        : Promise.race([released.promise, aborted(signal)]));
      release = () => undefined;
      witness.exit(id);
    },
    { id, autoRequeue: options.autoRequeue ?? false },
  );
  return { selector, release: () => release(), entries, abortReasons };
}

export async function ids(selector: LeaderSelector): Promise<string[]> {
  return (await selector.getParticipants()).map((participant) => participant.id);
}

/**
 * Starts `leader` and waits until it leads, then starts each of `waiting` in turn and waits
 * until the line shows all of them.
 */
export async function startInLine(leader: Contender, ...waiting: Contender[]): Promise<void> {
  await leader.selector.start();
  await waitFor(() => leader.selector.isLeader, { message: `${leader.selector.id} leads` });
  for (const [index, { selector }] of waiting.entries()) {
    await selector.start();
    // Read on the waiting selector's own session: its answer comes after the create's, so the
    // selector knows its node by then (a close() from here deletes it; before, the node would
    // be left to the framework's cleanup of a create whose answer never came).
    await waitFor(async () => (await ids(selector)).length === index + 2);
  }
}

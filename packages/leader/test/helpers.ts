// Shared test helpers: clients, the overlap witness, and a deferred for hand-made waits.
import assert from 'node:assert/strict';
import {
  createFramework,
  RetryNTimes,
  silentLogger,
  type ErrorPolicy,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { timing, type TestingServer } from '@zkrecipes/testing';
import { LeaderSelector } from '../src/leader-selector.js';

/** Options of {@link connectedClient}. */
export interface ClientOptions {
  readonly connectString?: string;
  readonly sessionTimeoutMs?: number;
  readonly errorPolicy?: ErrorPolicy;
  readonly sessionExpirationPercent?: number;
}

/** A started, connected client with a quick retry policy and no log output. */
export async function connectedClient(
  server: Pick<TestingServer, 'connectString'>,
  options: ClientOptions = {},
): Promise<FrameworkClient> {
  const client = createFramework({
    connectString: options.connectString ?? server.connectString,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
    connectionTimeoutMs: 10_000,
    errorPolicy: options.errorPolicy ?? 'standard',
    sessionExpirationPercent: options.sessionExpirationPercent ?? 100,
    retryPolicy: new RetryNTimes({ n: 5, sleepBetweenRetriesMs: 50 }),
    logger: silentLogger,
  });
  await client.start();
  assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
  return client;
}

/** Closes every client, ignoring failures (teardown). */
export async function closeAll(closables: readonly { close(): Promise<unknown> }[]): Promise<void> {
  await Promise.all(closables.map((closable) => closable.close().catch(() => undefined)));
}

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

/** Nearest-rank percentile of `samples` (peer-bench's rule), in ms. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
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

// LeaderSelector's mutex: an InterProcessMutex whose wait in line tells the selector's telemetry
// what it sees, so that the time without a leader comes from the requests the wait makes
// anyway (leader.failover is benchmarked against Curator: no request may be added to it).
import type { FrameworkClient } from '@zkrecipes/framework';
import { InterProcessMutex, type QueueObserver } from '@zkrecipes/locks';
import type { LeaderTelemetry } from './leader-telemetry.js';

/**
 * Follows the head of the queue across one attempt's looks. The watch on the node ahead firing
 * starts the wait; the next look ends it: a new head (this participant or another) means the
 * leader went and that much time passed without one, as far as this participant can tell; the
 * same head means the node that went was only a waiter ahead of ours.
 */
class LeaderlessWatch implements QueueObserver {
  readonly #telemetry: LeaderTelemetry;
  /** The head of the queue at the last look of this attempt. */
  #head: string | undefined;
  #woke = false;

  constructor(telemetry: LeaderTelemetry) {
    this.#telemetry = telemetry;
  }

  looked(first: string): void {
    if (this.#woke) {
      this.#woke = false;
      this.#telemetry.lookedAfterWatch(this.#head !== undefined && first !== this.#head);
    }
    this.#head = first;
  }

  woke(): void {
    this.#woke = true;
    this.#telemetry.watchFired();
  }

  /** A new attempt: its node is new, and a wait the last one left open cannot be finished. */
  reset(): void {
    this.#head = undefined;
    if (this.#woke) this.#telemetry.lookedAfterWatch(false);
    this.#woke = false;
  }
}

/** @internal The mutex a LeaderSelector queues on. */
export class SelectorMutex extends InterProcessMutex {
  readonly #client: FrameworkClient;
  readonly #idBytes: Buffer;
  readonly #leaderless: LeaderlessWatch;
  /** The delete of the node the latest attempt queued with and let go without leading. */
  #leftLine: Promise<void> | undefined;

  constructor(client: FrameworkClient, path: string, id: string, telemetry: LeaderTelemetry) {
    const idBytes = Buffer.from(id, 'utf8');
    super(client, path, { lockData: idBytes });
    this.#client = client;
    this.#idBytes = idBytes;
    this.#leaderless = new LeaderlessWatch(telemetry);
  }

  /**
   * Tells the participant behind the hold's node that this node now leads: rewrites the node's
   * data with the same bytes (only while it is still the create's version 0, so nothing else's
   * data is overwritten). Its watch on our node fires, and it looks at the queue again while we
   * lead: when our node then goes, its last look has nothing ahead of ours, and it takes over
   * without reading the children (one round trip less than Curator's hand-over). Best effort,
   * given up with `signal` (the leadership's): a failure only leaves the successor reading the
   * children, as Curator's does.
   */
  announceHold(signal: AbortSignal): void {
    const path = this.getLockPath();
    if (path === undefined) return;
    this.#client.setData(path, this.#idBytes, { version: 0, signal }).catch(() => undefined);
  }

  /** Called as each attempt starts, before it queues. */
  attemptStarting(): void {
    this.#leftLine = undefined;
    this.#leaderless.reset();
  }

  /**
   * The delete of the node the latest attempt let go of without leading (a wait in line cut
   * short, say by close()): settled once the server answered it, or once the wait for that
   * gave up as a release's does; undefined when that attempt let go of nothing.
   */
  get leftLine(): Promise<void> | undefined {
    return this.#leftLine;
  }

  /**
   * Calls `listener` when the hold this attempt just won may be gone (its `lost` reason), at
   * once when it already is; undefined without a hold. Returns the function that stops it.
   */
  whenHoldLost(listener: (reason: Error) => void): (() => void) | undefined {
    return this.onHoldLost(listener);
  }

  protected override prepareAttempt(
    scope: Parameters<InterProcessMutex['prepareAttempt']>[0],
  ): ReturnType<InterProcessMutex['prepareAttempt']> {
    return {
      ...super.prepareAttempt(scope),
      observer: this.#leaderless,
      onLetGo: (removed) => {
        this.#leftLine = removed;
      },
    };
  }
}

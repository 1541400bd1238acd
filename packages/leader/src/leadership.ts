// What a LeaderSelector's takeLeadership gets besides its signal: a way to check, synchronously
// and without a timer, that it may still act as the leader.
import type { FrameworkClient } from '@zkrecipes/framework';

/**
 * One leadership of a {@link LeaderSelector}, as `takeLeadership(signal, leadership)` gets it.
 * Check {@link isValid} just before each side effect only the leader may make: unlike the
 * signal, which aborts from an event, it is right on the first line after an event-loop stall.
 */
export interface Leadership {
  /** The signal `takeLeadership` gets: aborts when leadership may be gone, is interrupted or closed. */
  readonly signal: AbortSignal;
  /**
   * Until when (a `performance.now()` instant) this leadership is known to be sound: the
   * client's `validUntilMs` while `takeLeadership` runs and its signal has not aborted, else
   * -Infinity.
   */
  readonly validUntil: number;
  /** `performance.now() < validUntil`: true while this participant may still act as leader. */
  isValid(): boolean;
}

/** @internal The leadership handed to one takeLeadership call; {@link end} when it returns. */
export class SelectorLeadership implements Leadership {
  readonly signal: AbortSignal;
  readonly #client: FrameworkClient;
  #ended = false;

  constructor(client: FrameworkClient, signal: AbortSignal) {
    this.#client = client;
    this.signal = signal;
  }

  get validUntil(): number {
    // Every error-policy state aborts the signal, so an unaborted one means no loss since the
    // lock was confirmed; the client's own bound covers a stall that no event has reported yet.
    return this.#ended || this.signal.aborted ? -Infinity : this.#client.validUntilMs;
  }

  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  /** takeLeadership returned: the leadership is over. */
  end(): void {
    this.#ended = true;
  }
}

// What a LeaderSelector is given: its listener (the leader's work) and its options, with their
// defaults; kept apart from the class so the class reads as behaviour.
import type { Leadership } from './leadership.js';

/**
 * The leader's work (Curator's `LeaderSelectorListener.takeLeadership`). Leadership lasts
 * until it returns (or rejects). `signal` aborts when leadership may be gone (see
 * {@link LeaderSelector}): stop working then and return. `leadership.isValid()` says,
 * synchronously, whether it may still act: check it just before each side effect.
 */
export type TakeLeadership = (signal: AbortSignal, leadership: Leadership) => unknown;

/** The object form of the listener, as in Curator. */
export interface LeaderSelectorListener {
  /**
   * Runs while this participant leads; leadership ends when it returns. Stop when `signal`
   * aborts; check `leadership.isValid()` before each side effect.
   */
  takeLeadership(signal: AbortSignal, leadership: Leadership): unknown;
}

/** Options of {@link LeaderSelector}. */
export interface LeaderSelectorOptions {
  /**
   * This participant's id, stored as its node's data (UTF-8) and returned by
   * `getParticipants()` and `getLeader()` on every participant, Java ones included. Default: ''
   * (empty data; Curator writes its client's default data, the local IP, instead).
   */
  readonly id?: string | undefined;
  /**
   * Queue again whenever an attempt ends: after `takeLeadership` returns, after an
   * interruption, after a connection problem (Curator's `autoRequeue()`). Default: false, one
   * attempt per `start()` / `requeue()`.
   */
  readonly autoRequeue?: boolean | undefined;
  /** Participant reads in flight at once in `getParticipants()`. Default: 16. */
  readonly concurrency?: number | undefined;
}

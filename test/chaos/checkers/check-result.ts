// What every checker returns: how much it judged, and each violation with what it involved.

/** One broken invariant, with the events or ops that show it. */
export interface Violation {
  /** One line: what is wrong. */
  readonly message: string;
  /** The ops, claims or items involved, as recorded (JSON-friendly). */
  readonly details: unknown;
}

/** A checker's verdict on one run. */
export interface CheckResult {
  readonly checker: string;
  /** How many ops, holds or items it judged. */
  readonly ops: number;
  readonly violations: readonly Violation[];
  /** Counts worth a column of their own (e.g. the queue's lost / duplicated / never put). */
  readonly summary?: string;
}

/**
 * What a safe-mode queue (one with a `lockPath`) does with an item whose consumer threw
 * (Curator's `ErrorMode`).
 */
export const ErrorMode = {
  /** Put the item back at the end of the queue, for any consumer to try again. The default. */
  REQUEUE: 'REQUEUE',
  /** Delete the item: a failure is final. */
  DELETE: 'DELETE',
} as const;
export type ErrorMode = (typeof ErrorMode)[keyof typeof ErrorMode];

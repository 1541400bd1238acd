// ZooKeeper's wire error codes live in @zkrecipes/wire (the protocol encoded once); the
// framework re-exports them under the names it always had and adds its own local codes.
import type { ZooKeeperWireCodeName } from '@zkrecipes/wire';

export { codeName, ZooKeeperErrorCode } from '@zkrecipes/wire';
export type { ZooKeeperWireCodeName } from '@zkrecipes/wire';

/**
 * Codes of our own that never travel on the wire, so they have no number:
 * - `CLOSED`: an operation on a client that was closed;
 * - `INVALID_ARGUMENT`: bad input caught before anything was sent;
 * - `ILLEGAL_STATE`: a call the object's lifecycle does not allow now (start() twice, an
 *   operation before start());
 * - `OUTCOME_UNKNOWN`: a write was sent, its reply was lost, and what the server holds cannot
 *   tell whether it took effect;
 * - `HOLD_LOST`: a write guarded by a lock, lease or leadership was refused because that hold
 *   is gone (its node no longer exists, or it was released or lost): nothing was written;
 * - `SCHEMA_VIOLATION`: a call the client's `schemaSet` does not allow, refused before anything
 *   was sent;
 * - `UNKNOWN`: the server sent a number we have no name for (the number is kept in `zkCode`).
 */
export const ZooKeeperLocalErrorCode = {
  /** The operation was attempted on a client that was closed. */
  CLOSED: 'CLOSED',
  /** Bad input caught locally before anything was sent. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** A call the object's lifecycle does not allow now (start() twice, use before start()). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** A write whose reply was lost, and the server's state cannot tell whether it took effect. */
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /** A guarded write refused because its hold (lock, lease, leadership) is gone; nothing written. */
  HOLD_LOST: 'HOLD_LOST',
  /** A call the client's schema set does not allow, refused before anything was sent. */
  SCHEMA_VIOLATION: 'SCHEMA_VIOLATION',
  /** The server sent an error number this library has no name for (kept in `zkCode`). */
  UNKNOWN: 'UNKNOWN',
} as const;

/**
 * One of our own codes: `'CLOSED' | 'INVALID_ARGUMENT' | 'ILLEGAL_STATE' | 'OUTCOME_UNKNOWN' |
 * 'HOLD_LOST' | 'SCHEMA_VIOLATION' | 'UNKNOWN'`.
 */
export type ZooKeeperLocalErrorCode =
  (typeof ZooKeeperLocalErrorCode)[keyof typeof ZooKeeperLocalErrorCode];

/** Every code a {@link ZooKeeperError} can carry: ZooKeeper's names plus our own. */
export type ZooKeeperErrorCodeName = ZooKeeperWireCodeName | ZooKeeperLocalErrorCode;

// What a NodeKeeper is told by its owner; kept apart so the keeper reads as its algorithm.
import type { CreateMode, Logger } from '@zkrecipes/framework';

/** What the keeper is told by its owner (PersistentNode). */
export interface NodeKeeperOptions {
  readonly basePath: string;
  readonly mode: CreateMode;
  /** The path of a non-sequential node (with our protection prefix when protected). */
  readonly plainPath: string;
  readonly protection: boolean;
  readonly createParents: boolean;
  /** A node whose create reply comes after stop() is deleted (false: left to the server). */
  readonly deleteAfterStop: boolean;
  readonly data: Buffer;
  /** The owner's close: every request of the keeper carries it, so none outlives the close. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The node was created by us (not adopted): Curator's nodeCreated. */
  readonly onCreated: (path: string) => void;
  /** The first create or adoption is done (what waitForInitialCreate waits for). */
  readonly onReady: () => void;
  readonly report: (error: unknown, context: string) => void;
}

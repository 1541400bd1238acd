import type { TransactionOp } from '@zkrecipes/framework';

/**
 * One migration: the operations (built with the framework's `op`) applied in one transaction,
 * together with the record that it was applied. Give the same operations on every run: a
 * migration is recognised by their hash.
 */
export type Migration = readonly TransactionOp[];

/** Named, ordered migrations (Curator's `MigrationSet`): each applied once per ensemble. */
export interface MigrationSet {
  /** The set's name: one node name, under the manager's lock and metadata paths. */
  readonly id: string;
  /** The migrations in the order they apply; only ever append to this list. */
  readonly migrations: readonly Migration[];
}

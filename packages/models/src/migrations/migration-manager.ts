import pLimit from 'p-limit';
import {
  type FrameworkClient,
  InvalidArgumentError,
  isNodeExists,
  isOutcomeUnknown,
  isNoNode,
  joinPath,
  op,
  type SignalOptions,
  validatePath,
  validateTimeoutMs,
} from '@zkrecipes/framework';
import {
  checkClient,
  checkRecipeOptions,
  checkSignalOptions,
  describeValue,
  reportRecipeFailure,
} from '@zkrecipes/framework/recipe-support';
import { InterProcessSemaphoreMutex } from '@zkrecipes/locks';
import { MigrationError } from './migration-error.js';
import { migrationHash } from './migration-hash.js';
import type { Migration, MigrationSet } from './migration-set.js';

/** Options of {@link MigrationManager}. */
export interface MigrationManagerOptions {
  /** The parent of the sets' locks: set `id` is locked at `<lockPath>/<id>`. */
  readonly lockPath: string;
  /** The parent of the sets' records: `<metaDataPath>/<id>/meta-<sequence>`, one per migration. */
  readonly metaDataPath: string;
  /** How long `migrate` waits for a set's lock (Curator's `lockMax`). Default: 60000. */
  readonly lockTimeoutMs?: number | undefined;
}

/** Curator's name of the record nodes. */
const META_DATA_NODE_NAME = 'meta-';
const DEFAULT_LOCK_TIMEOUT_MS = 60_000;
const READ_CONCURRENCY = 16;

/**
 * Applies migration sets once per ensemble (Curator's `MigrationManager`), safely from many
 * processes at once. For a set, under an InterProcessSemaphoreMutex at `<lockPath>/<id>`, it
 * reads the records under `<metaDataPath>/<id>` (a CONTAINER; one PERSISTENT_SEQUENTIAL
 * `meta-` child per applied migration, holding the SHA-256 of its ops as Curator computes it),
 * checks that they match the set's first migrations, and applies the rest in one transaction
 * with their records. The transaction is also conditional on the lock's node, and answered
 * exactly after a lost reply, so a migration is never applied twice.
 */
export class MigrationManager {
  readonly #client: FrameworkClient;
  readonly #lockPath: string;
  readonly #metaDataPath: string;
  readonly #lockTimeoutMs: number;

  constructor(client: FrameworkClient, options: MigrationManagerOptions) {
    checkClient('MigrationManager', client);
    checkRecipeOptions('MigrationManager', options, ['lockPath', 'metaDataPath', 'lockTimeoutMs']);
    if (options === undefined) {
      throw new InvalidArgumentError('MigrationManager needs { lockPath, metaDataPath }');
    }
    validatePath(options.lockPath);
    validatePath(options.metaDataPath);
    this.#client = client;
    this.#lockPath = options.lockPath;
    this.#metaDataPath = options.metaDataPath;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    validateTimeoutMs('lockTimeoutMs', this.#lockTimeoutMs);
  }

  /**
   * Applies the set's migrations not applied yet; resolves how many this call applied (0 when
   * another process did, or did earlier). Rejects with MigrationError when the records do not
   * match the set or the lock was not taken within `lockTimeoutMs`, with TransactionFailedError
   * when an op fails (nothing of that call applied), and as the client's operations otherwise.
   */
  async migrate(set: MigrationSet, options: SignalOptions = {}): Promise<number> {
    const signal = checkSignalOptions(options);
    const hashes = checkSet(set).map((ops) => migrationHash(ops, this.#client.namespace));
    const lock = new InterProcessSemaphoreMutex(this.#client, joinPath(this.#lockPath, set.id));
    if (!(await lock.acquire(this.#lockTimeoutMs, { signal }))) {
      throw new MigrationError(
        set.id,
        'LOCK_TIMEOUT',
        `lock not taken in ${this.#lockTimeoutMs} ms`,
      );
    }
    try {
      const metaPath = joinPath(this.#metaDataPath, set.id);
      const applied = await this.#records(metaPath, signal);
      if (applied.length > set.migrations.length) {
        throw new MigrationError(set.id, 'MISMATCH', 'more records than migrations');
      }
      applied.forEach((record, i) => {
        if (!record.equals(hashes[i]!)) {
          throw new MigrationError(
            set.id,
            'MISMATCH',
            `migration ${i} differs from the one applied`,
          );
        }
      });
      const pending = set.migrations.slice(applied.length);
      if (pending.length === 0) return 0;
      await this.#ensureContainer(metaPath, signal);
      const record = joinPath(metaPath, META_DATA_NODE_NAME);
      const ops = pending.flatMap((migration, i) => [
        ...migration,
        op.create(record, { data: hashes[applied.length + i]!, mode: 'PERSISTENT_SEQUENTIAL' }),
      ]);
      // Guarded by the lease node and idempotent: a holder that lost its lease writes nothing,
      // and a lost reply is answered from the server.
      await lock.lease!.transaction(ops, { signal });
      return pending.length;
    } finally {
      // A failed release (the lease's delete goes on in the background) must not hide the
      // migration's own outcome.
      await lock.release().catch((error: unknown) => {
        reportRecipeFailure(this.#client, undefined, error, `release ${set.id}'s migration lock`);
      });
    }
  }

  /** The recorded hashes, in record (sequence) order. */
  async #records(metaPath: string, signal: AbortSignal | undefined): Promise<Buffer[]> {
    let names: string[];
    try {
      names = (await this.#client.getChildren(metaPath, { signal }))
        .filter((name) => name.startsWith(META_DATA_NODE_NAME))
        .sort();
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
    }
    const limit = pLimit(READ_CONCURRENCY);
    return Promise.all(
      names.map((name) =>
        limit(async () => (await this.#client.getData(joinPath(metaPath, name), { signal })).data),
      ),
    );
  }

  async #ensureContainer(path: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.#client.create(path, { mode: 'CONTAINER', createParents: true, signal });
    } catch (error) {
      if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
    }
  }
}

function checkSet(set: MigrationSet): readonly Migration[] {
  if (typeof set !== 'object' || set === null) {
    throw new InvalidArgumentError(`a migration set must be an object; got ${describeValue(set)}`);
  }
  if (typeof set.id !== 'string' || set.id === '' || set.id.includes('/')) {
    throw new InvalidArgumentError(
      `a migration set's id must be one node name; got ${describeValue(set.id)}`,
    );
  }
  validatePath(`/${set.id}`);
  if (!Array.isArray(set.migrations) || !set.migrations.every((m) => Array.isArray(m))) {
    throw new InvalidArgumentError(`set "${set.id}": migrations must be an array of op arrays`);
  }
  return set.migrations;
}

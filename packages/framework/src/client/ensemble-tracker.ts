import type { Observable, Subscription } from 'rxjs';
import { isConnectionLoss, isNoNode, isSessionExpired, isClosed } from '../errors/predicates.js';
import type { Logger } from '../logging/logger.js';
import { formatServer, type EnsembleConfig } from '../paths/ensemble-config.js';
import { clientServersOf } from '../paths/ensemble-config.js';
import type { ServerAddress } from '../paths/connect-string.js';
import { isConnectedState, type ConnectionStateChange } from '../state/connection-state.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';
import { configFromReply } from './ensemble-operations.js';

/** What the tracker needs from the client. */
export interface EnsembleTrackerOptions {
  readonly ops: Pick<ZooKeeperOperations, 'getConfig'>;
  readonly changes: Observable<ConnectionStateChange>;
  /** The servers connection attempts go to now. */
  readonly servers: () => readonly ServerAddress[];
  /** Uses these servers for the next connection attempts (the current connection stays). */
  readonly updateServers: (servers: readonly ServerAddress[]) => void;
  readonly logger: Logger;
  readonly report: (error: unknown, context: string) => void;
}

/**
 * Follows the ensemble's membership (Curator's EnsembleTracker): reads /zookeeper/config with a
 * watch on every connection and after every change, and hands the members' client addresses to
 * the connection for its next attempts. A configuration without client addresses (a server
 * whose client port is only in its static zoo.cfg) changes nothing. See
 * docs/framework/ensembles.md.
 */
export class EnsembleTracker {
  readonly #options: EnsembleTrackerOptions;
  readonly #logger: Logger;
  #subscription: Subscription | undefined;
  /** Withdraws the watch of the previous read: a re-read leaves its own. */
  #watch: AbortController | undefined;
  #reads = 0;
  #closed = false;
  #config: EnsembleConfig | undefined;

  constructor(options: EnsembleTrackerOptions) {
    this.#options = options;
    this.#logger = options.logger.child({ component: 'EnsembleTracker' });
  }

  /** The configuration last read; undefined before the first read. */
  get config(): EnsembleConfig | undefined {
    return this.#config;
  }

  start(): void {
    this.#subscription = this.#options.changes.subscribe((change) => {
      if (isConnectedState(change.state)) this.#read(this.#worthWatching());
    });
  }

  /**
   * A configuration that names client addresses is followed with a watch; one without (static
   * client ports, a standalone server) is only read again on the next connection, so a client
   * of such a server holds no watch of ours (nor any of its watch budget).
   */
  #worthWatching(): boolean {
    return this.#config !== undefined && clientServersOf(this.#config).length > 0;
  }

  close(): void {
    this.#closed = true;
    this.#subscription?.unsubscribe();
    this.#watch?.abort();
  }

  #read(watched: boolean): void {
    if (this.#closed) return;
    this.#watch?.abort();
    const watch = new AbortController();
    this.#watch = watch;
    const read = ++this.#reads;
    const watcher = watched
      ? (event: { type: string }): void => {
          // SESSION_EXPIRED: the new session's connection reads again.
          if (event.type === 'NODE_DATA_CHANGED') this.#read(true);
        }
      : undefined;
    this.#options.ops.getConfig(watcher, watch.signal).then(
      (reply) => {
        if (read !== this.#reads || this.#closed) return;
        this.#apply(configFromReply(reply));
        // Worth following from now on: read again, leaving the watch.
        if (!watched && this.#worthWatching()) this.#read(true);
      },
      (error: unknown) => {
        if (watch.signal.aborted || this.#closed) return;
        // Gone with the connection: the next one reads again. NO_NODE: no dynamic config.
        if (isConnectionLoss(error) || isSessionExpired(error) || isClosed(error)) return;
        if (isNoNode(error)) return;
        this.#logger.debug('could not read the ensemble configuration', { error });
      },
    );
  }

  #apply(config: EnsembleConfig): void {
    this.#config = config;
    const servers = clientServersOf(config);
    if (servers.length === 0) return;
    const now = this.#options.servers();
    const key = (list: readonly ServerAddress[]): string => list.map(formatServer).sort().join(',');
    if (key(servers) === key(now)) return;
    this.#logger.info('the ensemble changed: using its members for the next connections', {
      servers: servers.map(formatServer).join(','),
      version: config.versionHex,
    });
    try {
      this.#options.updateServers(servers);
    } catch (error) {
      this.#options.report(error, 'ensemble tracker');
    }
  }
}

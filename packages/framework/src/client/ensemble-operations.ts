// The input checks and request building of getConfig, reconfig and updateServers, apart from
// FrameworkClient's plumbing (docs/framework/ensembles.md).
import { checkOptionsObject } from '../checks/option-checks.js';
import type { ReconfigRequest } from '@zkrecipes/wire';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { parseConnectString, type ServerAddress } from '../paths/connect-string.js';
import {
  formatEnsembleMember,
  parseEnsembleConfig,
  type EnsembleConfig,
  type EnsembleMember,
} from '../paths/ensemble-config.js';
import type { Stat, Watcher } from '../zk/zookeeper-types.js';
import { checkSignal, checkWatcher } from './check-operation-input.js';

/** The configuration as read, with the Stat of /zookeeper/config. */
export interface EnsembleConfigWithStat extends EnsembleConfig {
  /** The Stat of /zookeeper/config when it was read. */
  readonly stat: Stat;
}

/** Options of `client.getConfig`. */
export interface GetConfigOptions {
  /** A one-shot watch on /zookeeper/config: called once with the next change. Default none. */
  readonly watch?: Watcher | undefined;
  /** Ends the call (and withdraws the watch) when it aborts. Default none. */
  readonly signal?: AbortSignal | undefined;
}

/** A server named in `joining`: a `server.<id>=...` line, or a member as getConfig returned it. */
export type JoiningServer = string | EnsembleMember;

/** Options of `client.reconfig`: an incremental change (joining, leaving) or a new member list. */
export interface ReconfigOptions {
  /**
   * Servers to add (or to change, by id): `'server.4=10.0.0.4:2888:3888:participant;10.0.0.4:2181'`
   * or an {@link EnsembleMember}. Default none.
   */
  readonly joining?: JoiningServer | readonly JoiningServer[] | undefined;
  /** Ids of the servers to remove. Default none. */
  readonly leaving?: number | readonly number[] | undefined;
  /** The whole new membership instead of `joining` and `leaving`. Default none. */
  readonly members?: JoiningServer | readonly JoiningServer[] | undefined;
  /**
   * Apply only if the configuration's version is still this (the `version` getConfig
   * returned); BAD_VERSION otherwise. Default: whatever the current configuration is.
   */
  readonly fromConfig?: bigint | undefined;
  /** Stops waiting when it aborts (a reconfig already sent may still be applied). Default none. */
  readonly signal?: AbortSignal | undefined;
}

/** Checks getConfig's options; throws InvalidArgumentError naming what is wrong. */
export function checkGetConfigOptions(options: GetConfigOptions): void {
  checkOptionsObject(options);
  checkWatcher(options.watch);
  checkSignal(options.signal);
}

function serverLines(name: string, value: JoiningServer | readonly JoiningServer[]): string {
  const list: readonly unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new InvalidArgumentError(`${name} must not be empty`);
  return list
    .map((entry) => {
      if (typeof entry === 'object' && entry !== null && 'id' in entry) {
        return formatEnsembleMember(entry as EnsembleMember);
      }
      if (typeof entry !== 'string' || !/^server\.\d+=\S+$/.test(entry.trim())) {
        throw new InvalidArgumentError(
          `${name}: expected 'server.<id>=<host>:<quorumPort>:<electionPort>[:role];<clientHost>:<clientPort>' or a member from getConfig, got ${describeValue(entry)}`,
        );
      }
      return entry.trim();
    })
    .join(',');
}

function serverIds(value: number | readonly number[]): string {
  const list: readonly unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new InvalidArgumentError('leaving must not be empty');
  for (const id of list) {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
      throw new InvalidArgumentError(
        `leaving: a server id is a whole number, got ${describeValue(id)}`,
      );
    }
  }
  return list.join(',');
}

/** Checks reconfig's options and builds the request; nothing is sent on bad input. */
export function reconfigRequest(options: ReconfigOptions): ReconfigRequest {
  checkOptionsObject(options);
  checkSignal(options.signal);
  const { joining, leaving, members, fromConfig } = options;
  if (fromConfig !== undefined && typeof fromConfig !== 'bigint') {
    throw new InvalidArgumentError(
      `fromConfig is a configuration version (a bigint, as getConfig's version), got ${describeValue(fromConfig)}`,
    );
  }
  const curConfigId = fromConfig ?? -1n;
  if (members !== undefined) {
    if (joining !== undefined || leaving !== undefined) {
      throw new InvalidArgumentError(
        'members replaces the membership: give it without joining or leaving',
      );
    }
    return { newMembers: serverLines('members', members), curConfigId };
  }
  if (joining === undefined && leaving === undefined) {
    throw new InvalidArgumentError('reconfig needs joining, leaving or members');
  }
  return {
    joiningServers: joining === undefined ? undefined : serverLines('joining', joining),
    leavingServers: leaving === undefined ? undefined : serverIds(leaving),
    curConfigId,
  };
}

/** The configuration and Stat of a getConfig or reconfig reply. */
export function configFromReply(reply: { data: Buffer; stat: Stat }): EnsembleConfigWithStat {
  return { ...parseEnsembleConfig(reply.data), stat: reply.stat };
}

/**
 * The servers of an `updateServers` connect string. Its chroot must be the client's (or
 * absent): the chroot is part of every path the client has, and cannot change under it.
 */
export function serversOfUpdate(
  connectString: string,
  chroot: string | undefined,
): readonly ServerAddress[] {
  const parsed = parseConnectString(connectString);
  if (parsed.chroot !== undefined && parsed.chroot !== chroot) {
    throw new InvalidArgumentError(
      `updateServers: the chroot '${parsed.chroot}' is not the client's (${chroot === undefined ? 'none' : `'${chroot}'`}); give the servers alone or with the same chroot`,
    );
  }
  return parsed.servers;
}

// The zoo.cfg every harness server starts from, shared by TestingServer and TestingCluster
// so a standalone server and a quorum member behave alike apart from the quorum itself.
import { writeFileSync } from 'node:fs';
import { LOOPBACK } from './free-port.js';

/** Options TestingServer and TestingCluster have in common. */
export interface ZooKeeperConfigOptions {
  /** ZooKeeper's tick; session timeouts and quorum limits count in ticks. Default 500. */
  tickTimeMs?: number;
  /** Shortest session timeout the server grants. Default 1000 (2 ticks). */
  minSessionTimeoutMs?: number;
  /** Longest session timeout the server grants. Default 60000. */
  maxSessionTimeoutMs?: number;
  /** Extra JVM flags after the defaults, e.g. `['-Dzookeeper.enforceQuota=true']`. */
  jvmFlags?: readonly string[];
  /**
   * Start the server with `zookeeper.extendedTypesEnabled=true`, which TTL nodes
   * (PERSISTENT_WITH_TTL, PERSISTENT_SEQUENTIAL_WITH_TTL) need; without it the server answers
   * their creates with UNIMPLEMENTED. Default false, as ZooKeeper's own default.
   */
  extendedTypesEnabled?: boolean;
  /**
   * How often the server looks for empty containers and expired TTL nodes to delete
   * (`znode.container.checkIntervalMs`, not scaled by `timing.scale`). ZooKeeper's default is
   * 60000; tests of reaping set it low, e.g. 100.
   */
  containerCheckIntervalMs?: number;
  /**
   * The most containers and TTL nodes deleted per minute (`znode.container.maxPerMinute`).
   * ZooKeeper's default is 10000.
   */
  containerMaxPerMinute?: number;
  /** Extra zoo.cfg lines; they override the harness's own. */
  properties?: Readonly<Record<string, string>>;
  /** Deadline for a JVM to serve, before scaling by `timing.scale`. Default 30000. */
  startTimeoutMs?: number;
  /** SIGTERM grace before SIGKILL in `stop()`, before scaling. Default 5000. */
  stopTimeoutMs?: number;
  /** Directory holding the ZooKeeper jars (see `zookeeperClasspath`). */
  jarDir?: string;
}

/** Defaults documented on ZooKeeperConfigOptions. */
export const CONFIG_DEFAULTS = {
  tickTimeMs: 500,
  minSessionTimeoutMs: 1000,
  maxSessionTimeoutMs: 60_000,
  startTimeoutMs: 30_000,
  stopTimeoutMs: 5000,
} as const;

export interface ZooCfgTarget {
  dataDir: string;
  clientPort: number;
  /** Quorum lines (server.N, initLimit, ...); empty for a standalone server. */
  quorum?: Readonly<Record<string, string>>;
}

/**
 * The JVM flags (system properties) the options above ask for, then the caller's `jvmFlags`:
 * these settings are read from system properties, not from zoo.cfg.
 */
export function serverJvmFlags(options: ZooKeeperConfigOptions): string[] {
  const flags: string[] = [];
  if (options.extendedTypesEnabled === true) flags.push('-Dzookeeper.extendedTypesEnabled=true');
  const { containerCheckIntervalMs: interval, containerMaxPerMinute: perMinute } = options;
  if (interval !== undefined) {
    if (!Number.isInteger(interval) || interval < 1) {
      throw new TypeError(`containerCheckIntervalMs must be a whole number >= 1; got ${interval}`);
    }
    flags.push(`-Dznode.container.checkIntervalMs=${interval}`);
  }
  if (perMinute !== undefined) {
    if (!Number.isInteger(perMinute) || perMinute < 1) {
      throw new TypeError(`containerMaxPerMinute must be a whole number >= 1; got ${perMinute}`);
    }
    flags.push(`-Dznode.container.maxPerMinute=${perMinute}`);
  }
  return [...flags, ...(options.jvmFlags ?? [])];
}

/** Renders and writes zoo.cfg to `file`. */
export function writeZooCfg(
  file: string,
  options: ZooKeeperConfigOptions,
  target: ZooCfgTarget,
): void {
  const entries: Record<string, string> = {
    tickTime: String(options.tickTimeMs ?? CONFIG_DEFAULTS.tickTimeMs),
    minSessionTimeout: String(options.minSessionTimeoutMs ?? CONFIG_DEFAULTS.minSessionTimeoutMs),
    maxSessionTimeout: String(options.maxSessionTimeoutMs ?? CONFIG_DEFAULTS.maxSessionTimeoutMs),
    dataDir: target.dataDir,
    clientPort: String(target.clientPort),
    clientPortAddress: LOOPBACK,
    // Tests open many sessions from one address.
    maxClientCnxns: '0',
    // The AdminServer would bind port 8080, which other ZooKeepers on the machine use.
    'admin.enableServer': 'false',
    // dump, cons and srvr are how the harness checks sessions and leadership.
    '4lw.commands.whitelist': '*',
    // Writes still reach the page cache, so they survive a JVM kill; only a machine crash
    // could lose them, and then the temp dir is gone anyway. Saves an fsync per write.
    forceSync: 'no',
    ...target.quorum,
    ...options.properties,
  };
  const text = Object.entries(entries)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
  writeFileSync(file, `${text}\n`);
}

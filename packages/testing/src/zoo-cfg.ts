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

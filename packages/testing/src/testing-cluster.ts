// A real ZooKeeper quorum on loopback, like Curator's TestingCluster: leader election,
// a leader crash and a member rejoining are things only a quorum can show. Servers are
// indexed from 0 (`servers[0]` has myid 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterMember, type ClusterServer } from './cluster-member.js';
import { fourLetterWord } from './four-letter-word.js';
import { freePorts, LOOPBACK } from './free-port.js';
import { processReaper } from './process-reaper.js';
import { timing } from './timing.js';
import { CONFIG_DEFAULTS, type ZooKeeperConfigOptions } from './zoo-cfg.js';
import { findJava, zookeeperClasspath } from './zookeeper-classpath.js';
import { ZooKeeperStartError, type ZooKeeperProcess } from './zookeeper-process.js';

/** Start-up attempts when another process grabs one of the free ports first. */
const BIND_ATTEMPTS = 3;

export interface TestingClusterOptions extends ZooKeeperConfigOptions {
  /** Number of servers. Default 3. */
  size?: number;
  /** Ticks a follower may take to connect and sync to a leader. Default 10. */
  initLimit?: number;
  /** Ticks a follower may lag behind the leader. Default 5. */
  syncLimit?: number;
  /**
   * Read-only mode: every member's JVM gets `-Dreadonlymode.enabled=true`, so a member cut off
   * from its quorum keeps serving reads to clients that accept a read-only server, and zoo.cfg
   * gets `localSessionsEnabled=true` and `localSessionsUpgradingEnabled=true` (unless
   * `properties` says otherwise): a read-only server only opens local sessions, and without the
   * upgrade an ephemeral create in a local session fails with EPHEMERAL_ON_LOCAL_SESSION.
   * Default false.
   */
  readOnlyMode?: boolean;
}

/** The member options `readOnlyMode` adds to (see TestingClusterOptions.readOnlyMode). */
function withReadOnlyMode(options: TestingClusterOptions): TestingClusterOptions {
  if (options.readOnlyMode !== true) return options;
  return {
    ...options,
    jvmFlags: ['-Dreadonlymode.enabled=true', ...(options.jvmFlags ?? [])],
    properties: {
      localSessionsEnabled: 'true',
      localSessionsUpgradingEnabled: 'true',
      ...options.properties,
    },
  };
}

/**
 * A real ZooKeeper quorum on loopback (Curator's `TestingCluster`), for what only a quorum can
 * show: leader election, a leader crash, a member rejoining. Servers are indexed from 0
 * (`servers[0]` has myid 1); a killed or restarted member keeps its port and data.
 *
 * @example
 * ```ts
 * await using cluster = await TestingCluster.start({ size: 3 });
 * const client = createFramework({ connectString: cluster.connectString });
 * await client.start();
 * await cluster.killServer(await cluster.findLeader()); // the remaining two elect a new leader
 * await cluster.restartServer(0);
 * ```
 */
export class TestingCluster implements AsyncDisposable {
  /** The temp dir holding every member's config, log and data; removed by close(). */
  readonly tempDir: string;
  #members: ClusterMember[];
  #options: TestingClusterOptions;
  #closed = false;

  private constructor(tempDir: string, members: ClusterMember[], options: TestingClusterOptions) {
    this.tempDir = tempDir;
    this.#members = members;
    this.#options = options;
  }

  /** Starts every server and resolves once each serves as leader or follower. */
  static async start(clusterOptions: TestingClusterOptions = {}): Promise<TestingCluster> {
    const options = withReadOnlyMode(clusterOptions);
    const size = options.size ?? 3;
    if (!Number.isInteger(size) || size < 1) throw new Error(`TestingCluster: bad size ${size}`);
    const classpath = zookeeperClasspath({ jarDir: options.jarDir });
    const java = findJava();
    for (let attempt = 1; ; attempt++) {
      const clusterDir = mkdtempSync(join(tmpdir(), 'zkrecipes-cluster-'));
      processReaper.trackDir(clusterDir);
      // Client, quorum and election port per server, all distinct.
      const ports = await freePorts(size * 3);
      const port = (i: number): number => ports[i] ?? 0;
      const quorum: Record<string, string> = {
        initLimit: String(options.initLimit ?? 10),
        syncLimit: String(options.syncLimit ?? 5),
        // A one-server "cluster" still runs the quorum code, as a leader.
        standaloneEnabled: 'false',
      };
      for (let i = 0; i < size; i++) {
        quorum[`server.${i + 1}`] = `${LOOPBACK}:${port(size + 2 * i)}:${port(size + 2 * i + 1)}`;
      }
      const members = Array.from(
        { length: size },
        (_, index) =>
          new ClusterMember({
            index,
            clientPort: port(index),
            clusterDir,
            quorum,
            java,
            classpath,
            options,
          }),
      );
      const cluster = new TestingCluster(clusterDir, members, options);
      try {
        for (const member of members) member.launch();
        await Promise.all(members.map((member) => member.waitServing(cluster.#startTimeoutMs())));
        return cluster;
      } catch (error) {
        await cluster.close();
        const retry = error instanceof ZooKeeperStartError && error.bindConflict;
        if (!retry || attempt >= BIND_ATTEMPTS) throw error;
      }
    }
  }

  /** Every server, comma-separated, for a client of the whole ensemble. */
  get connectString(): string {
    return this.#members.map((member) => member.connectString).join(',');
  }

  /** The members by index (0-based). */
  get servers(): readonly ClusterServer[] {
    return this.#members;
  }

  /** SIGKILL one server: a crash. Its ports and data are kept for restartServer(). */
  async killServer(index: number): Promise<void> {
    await this.#member(index).jvm?.kill();
  }

  /** SIGSTOP one server: it hangs with its connections open. */
  pauseServer(index: number): Promise<void> {
    return this.#running(index).pause();
  }

  /** SIGCONT after pauseServer(). */
  resumeServer(index: number): void {
    this.#running(index).resume();
  }

  /**
   * Starts the server again (stopping it first if it runs) with the same ports and data,
   * and waits until it has rejoined the quorum as follower or leader.
   */
  async restartServer(index: number): Promise<void> {
    const member = this.#member(index);
    const graceMs = timing.ms(this.#options.stopTimeoutMs ?? CONFIG_DEFAULTS.stopTimeoutMs);
    if (member.jvm?.running) await member.jvm.stop(graceMs);
    const jvm = member.launch();
    try {
      await member.waitServing(this.#startTimeoutMs());
    } catch (error) {
      await jvm.kill();
      throw error;
    }
  }

  /** Index of the server whose `srvr` says `Mode: leader`; rejects if none does. */
  async findLeader(): Promise<number> {
    const timeoutMs = timing.ms(2000);
    const modes = await Promise.all(
      this.#members.map(async (member) => {
        if (!member.running) return 'not running';
        try {
          const reply = await fourLetterWord(member.host, member.port, 'srvr', { timeoutMs });
          return /^Mode: (\w+)$/m.exec(reply)?.[1] ?? 'not serving';
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      }),
    );
    const leader = modes.indexOf('leader');
    if (leader >= 0) return leader;
    throw new Error(`no leader: ${modes.map((mode, i) => `${i}: ${mode}`).join(', ')}`);
  }

  /** The last lines of one server's output in its current (or last) run. */
  logTail(index: number, lines = 30): string {
    return this.#member(index).jvm?.logTail(lines) ?? '(never started)';
  }

  /** Kills every server and deletes the temp dir. A second call does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#members.map(async (member) => {
        await member.jvm?.kill();
      }),
    );
    rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
    processReaper.untrackDir(this.tempDir);
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #startTimeoutMs(): number {
    return timing.ms(this.#options.startTimeoutMs ?? CONFIG_DEFAULTS.startTimeoutMs);
  }

  #member(index: number): ClusterMember {
    if (this.#closed) throw new Error('TestingCluster is closed');
    const member = this.#members[index];
    if (member === undefined) {
      throw new Error(`TestingCluster: no server ${index} (size ${this.#members.length})`);
    }
    return member;
  }

  #running(index: number): ZooKeeperProcess {
    const jvm = this.#member(index).jvm;
    if (!jvm?.running) throw new Error(`TestingCluster: server ${index} is not running`);
    return jvm;
  }
}

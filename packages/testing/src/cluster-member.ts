// One server of a TestingCluster: its directory (myid, zoo.cfg, log, data), its ports and
// its current JVM. A member outlives its JVMs: kill and restart reuse the same dir and
// ports, so a restarted member rejoins with its data, as a real server would.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOPBACK } from './free-port.js';
import { serverJvmFlags, writeZooCfg, type ZooKeeperConfigOptions } from './zoo-cfg.js';
import { ZooKeeperProcess } from './zookeeper-process.js';

const MAIN_CLASS = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';

/** A quorum member's mode from `srvr`: the roles that mean it serves requests. */
const SERVING_MODE = /^Mode: (leader|follower)$/m;

/** One member of the quorum, as tests see it. Getters are live. */
export interface ClusterServer {
  /** The position in `TestingCluster.servers`, from 0. */
  readonly index: number;
  /** ZooKeeper's server id (myid): index + 1. */
  readonly id: number;
  /** Always `'127.0.0.1'`. */
  readonly host: string;
  /** The client port; kept across kills and restarts. */
  readonly port: number;
  /** This server alone: `127.0.0.1:<port>`. */
  readonly connectString: string;
  /** The secure client port (TLS), when the cluster was started with `tls`; kept across restarts. */
  readonly securePort: number | undefined;
  /** ZooKeeper's dataDir (myid, snapshots, transaction log), kept across kills and restarts. */
  readonly dataDir: string;
  /** True while the server's JVM is alive (also while paused). */
  readonly running: boolean;
  /** The current JVM's process id; undefined when it is not running. */
  readonly pid: number | undefined;
}

export interface ClusterMemberSetup {
  index: number;
  clientPort: number;
  /** The secure client port, when the cluster serves TLS. */
  securePort?: number;
  /** The cluster's temp dir: the member's dir goes inside, the watchdog removes it all. */
  clusterDir: string;
  /** Lines every member shares: server.N, initLimit, ... */
  quorum: Readonly<Record<string, string>>;
  java: string;
  classpath: string;
  options: ZooKeeperConfigOptions;
  /**
   * The member's dynamic configuration file (`server.N=...` lines, ZooKeeper 3.5+): written to
   * `zoo.cfg.dynamic` and named by zoo.cfg's `dynamicConfigFile`. Default none (the quorum
   * lines are in zoo.cfg).
   */
  dynamicConfig?: string;
}

export class ClusterMember implements ClusterServer {
  readonly host = LOOPBACK;
  readonly index: number;
  readonly port: number;
  readonly securePort: number | undefined;
  readonly dir: string;
  /** The current JVM; undefined before the first launch. */
  jvm: ZooKeeperProcess | undefined;
  #setup: ClusterMemberSetup;

  /** Creates the member's dir with myid and zoo.cfg; launches nothing yet. */
  constructor(setup: ClusterMemberSetup) {
    this.#setup = setup;
    this.index = setup.index;
    this.port = setup.clientPort;
    this.securePort = setup.securePort;
    this.dir = join(setup.clusterDir, `server-${this.id}`);
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(join(this.dataDir, 'myid'), `${this.id}\n`);
    let quorum = setup.quorum;
    if (setup.dynamicConfig !== undefined) {
      const dynamicFile = join(this.dir, 'zoo.cfg.dynamic');
      writeFileSync(dynamicFile, setup.dynamicConfig);
      quorum = { ...quorum, dynamicConfigFile: dynamicFile };
    }
    writeZooCfg(join(this.dir, 'zoo.cfg'), setup.options, {
      dataDir: this.dataDir,
      clientPort: this.port,
      quorum,
    });
  }

  get id(): number {
    return this.index + 1;
  }

  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get running(): boolean {
    return this.jvm?.running ?? false;
  }

  get pid(): number | undefined {
    return this.running ? this.jvm?.pid : undefined;
  }

  /** Starts a JVM for this member (the previous one must have exited). */
  launch(): ZooKeeperProcess {
    const { java, classpath, options, clusterDir } = this.#setup;
    this.jvm = ZooKeeperProcess.spawn({
      java,
      classpath,
      mainClass: MAIN_CLASS,
      configFile: join(this.dir, 'zoo.cfg'),
      jvmFlags: serverJvmFlags(options),
      logFile: join(this.dir, 'zookeeper.log'),
      cleanupDir: clusterDir,
    });
    return this.jvm;
  }

  /** Resolves once `srvr` reports leader or follower; rejects with the log tail. */
  async waitServing(timeoutMs: number): Promise<void> {
    const jvm = this.jvm;
    if (jvm === undefined) throw new Error(`server ${this.index} was never started`);
    await jvm.waitUntilServing({
      host: this.host,
      port: this.port,
      timeoutMs,
      command: 'srvr',
      isReady: (reply) => SERVING_MODE.test(reply),
    });
  }
}

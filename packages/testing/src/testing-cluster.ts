// A real ZooKeeper quorum on loopback, like Curator's TestingCluster: leader election,
// a leader crash and a member rejoining are things only a quorum can show. Servers are
// indexed from 0 (`servers[0]` has myid 1).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ClusterMember, type ClusterMemberSetup, type ClusterServer } from './cluster-member.js';
import { fourLetterWord } from './four-letter-word.js';
import { freePorts, LOOPBACK } from './free-port.js';
import { processReaper } from './process-reaper.js';
import { timing } from './timing.js';
import { CONFIG_DEFAULTS, type ZooKeeperConfigOptions } from './zoo-cfg.js';
import { findJava, zookeeperClasspath } from './zookeeper-classpath.js';
import { ZooKeeperStartError, type ZooKeeperProcess } from './zookeeper-process.js';
import { secureClientPortConfig, type SecureClientPortOptions } from './secure-client-port.js';
import { TlsMaterial } from './tls-material.js';
import { RawZooKeeperSession } from './wire/raw-zookeeper-session.js';
import { RawZooKeeperError } from './wire/raw-zookeeper-error.js';
import { ZooKeeperErrorCode } from './wire/protocol.js';

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
   * Every member also serves a secure (TLS) client port, as TestingServer's `tls` option does,
   * with one material for all: `true` for a fresh TlsMaterial and `clientAuth: 'want'`. Only
   * the client side is TLS; the quorum's own connections stay plaintext.
   */
  tls?: true | SecureClientPortOptions;
  /**
   * Dynamic reconfiguration (ZooKeeper 3.5+): zoo.cfg says `reconfigEnabled=true`, the
   * members are in a dynamic configuration file (`server.N=host:quorum:election:participant;
   * host:clientPort`, so /zookeeper/config names every member's client address), and the
   * superuser of {@link TestingCluster.superAuth} may reconfigure. Enables `addServer`,
   * `removeServer` and `reconfigure`. Default false.
   */
  reconfigEnabled?: boolean;
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

/** The superuser a reconfig-enabled cluster accepts (DigestAuthenticationProvider.superDigest). */
const SUPER_USER = 'super';
const SUPER_PASSWORD = 'zkrecipes-super';

/** The JVM flag that makes `super:<password>` ZooKeeper's superuser. */
function superDigestFlag(): string {
  const digest = createHash('sha1').update(`${SUPER_USER}:${SUPER_PASSWORD}`).digest('base64');
  return `-Dzookeeper.DigestAuthenticationProvider.superDigest=${SUPER_USER}:${digest}`;
}

/** A member's quorum and election ports. */
interface PeerPorts {
  readonly quorum: number;
  readonly election: number;
}

/** The superuser's credentials of a reconfig-enabled cluster, in `authInfo`'s shape. */
export interface SuperAuth {
  /** Always `digest`. */
  readonly scheme: 'digest';
  /** `user:password`. */
  readonly auth: string;
}

/** What `TestingCluster.reconfigure` asks for; ids are myids (index + 1). */
export interface ClusterReconfig {
  /** `server.N=...` lines of servers to add. */
  readonly joining?: readonly string[];
  /** Ids of servers to remove. */
  readonly leaving?: readonly number[];
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
  /** The certificates of the secure client ports, when started with `tls`. */
  readonly tls: TlsMaterial | undefined;
  #members: ClusterMember[];
  #options: TestingClusterOptions;
  /** True when the material was made here, and is closed with the cluster (set once started). */
  #ownsMaterial = false;
  #closed = false;
  #peers: PeerPorts[];
  #setup: Omit<ClusterMemberSetup, 'index' | 'clientPort' | 'dynamicConfig'> | undefined;

  private constructor(
    tempDir: string,
    members: ClusterMember[],
    options: TestingClusterOptions,
    material: TlsMaterial | undefined,
    peers: PeerPorts[] = [],
  ) {
    this.tempDir = tempDir;
    this.#members = members;
    this.#options = options;
    this.tls = material;
    this.#peers = peers;
  }

  /** Starts every server and resolves once each serves as leader or follower. */
  static async start(clusterOptions: TestingClusterOptions = {}): Promise<TestingCluster> {
    const options = withReadOnlyMode(clusterOptions);
    const size = options.size ?? 3;
    if (!Number.isInteger(size) || size < 1) throw new Error(`TestingCluster: bad size ${size}`);
    const classpath = zookeeperClasspath({ jarDir: options.jarDir });
    const java = findJava();
    const tls = options.tls === true ? {} : options.tls;
    const material = tls && (tls.material ?? (await TlsMaterial.create()));
    const ownsMaterial = material !== undefined && tls?.material === undefined;
    for (let attempt = 1; ; attempt++) {
      const clusterDir = mkdtempSync(join(tmpdir(), 'zkrecipes-cluster-'));
      processReaper.trackDir(clusterDir);
      // Client, quorum and election port per server, all distinct; then the secure ports.
      const ports = await freePorts(size * (material ? 4 : 3));
      const port = (i: number): number => ports[i] ?? 0;
      const quorum: Record<string, string> = {
        initLimit: String(options.initLimit ?? 10),
        syncLimit: String(options.syncLimit ?? 5),
        // A one-server "cluster" still runs the quorum code, as a leader.
        standaloneEnabled: 'false',
      };
      const peers = Array.from({ length: size }, (_, i) => ({
        quorum: port(size + 2 * i),
        election: port(size + 2 * i + 1),
      }));
      const reconfig = options.reconfigEnabled === true;
      let dynamicConfig: string | undefined;
      if (reconfig) {
        quorum['reconfigEnabled'] = 'true';
        dynamicConfig = peers.map((peer, i) => `${memberLine(i + 1, peer, port(i))}\n`).join('');
      } else {
        for (let i = 0; i < size; i++) {
          quorum[`server.${i + 1}`] = `${LOOPBACK}:${peers[i]!.quorum}:${peers[i]!.election}`;
        }
      }
      const memberOptions = reconfig
        ? { ...options, jvmFlags: [superDigestFlag(), ...(options.jvmFlags ?? [])] }
        : options;
      const setup = { clusterDir, quorum, java, classpath, options: memberOptions };
      const members = Array.from({ length: size }, (_, index) => {
        const securePort = material ? port(size * 3 + index) : undefined;
        const secureLines =
          material && securePort !== undefined
            ? secureClientPortConfig(material, securePort, tls.clientAuth)
            : {};
        return new ClusterMember({
          ...setup,
          index,
          clientPort: port(index),
          securePort,
          dynamicConfig,
          options: {
            ...memberOptions,
            properties: { ...secureLines, ...memberOptions.properties },
          },
        });
      });
      const cluster = new TestingCluster(clusterDir, members, options, material, peers);
      cluster.#setup = setup;
      try {
        for (const member of members) member.launch();
        await Promise.all(members.map((member) => member.waitServing(cluster.#startTimeoutMs())));
        // Only now: the material outlives a failed attempt, for the next one.
        cluster.#ownsMaterial = ownsMaterial;
        return cluster;
      } catch (error) {
        await cluster.close();
        const retry = error instanceof ZooKeeperStartError && error.bindConflict;
        if (!retry || attempt >= BIND_ATTEMPTS) {
          if (ownsMaterial) await material.close();
          throw error;
        }
      }
    }
  }

  /** Every server, comma-separated, for a client of the whole ensemble. */
  get connectString(): string {
    return this.#members.map((member) => member.connectString).join(',');
  }

  /**
   * Every member's secure client port, comma-separated, for a TLS client of the whole ensemble;
   * throws unless the cluster was started with `tls`.
   */
  get secureConnectString(): string {
    if (this.tls === undefined) {
      throw new Error('TestingCluster.secureConnectString: start the cluster with the tls option');
    }
    return this.#members.map((member) => `${member.host}:${member.securePort}`).join(',');
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

  /**
   * The superuser's credentials of a `reconfigEnabled` cluster, as `authInfo` takes them: a
   * client with them may reconfigure (write /zookeeper/config). Undefined otherwise.
   */
  get superAuth(): SuperAuth | undefined {
    if (this.#options.reconfigEnabled !== true) return undefined;
    return { scheme: 'digest', auth: `${SUPER_USER}:${SUPER_PASSWORD}` };
  }

  /**
   * Server `index`'s line as reconfig's `joining` takes it:
   * `server.<id>=127.0.0.1:<quorum>:<election>:participant;127.0.0.1:<clientPort>`.
   */
  memberLine(index: number): string {
    const member = this.#member(index);
    return memberLine(member.id, this.#peer(index), member.port);
  }

  /**
   * Sends a reconfig as the superuser through a running member (its own connection, no
   * retries); resolves the new /zookeeper/config data. Needs `reconfigEnabled`.
   */
  async reconfigure(change: ClusterReconfig): Promise<string> {
    const auth = this.#reconfigAuth();
    const running = this.#members.filter((member) => member.running);
    if (running.length === 0) throw new Error('TestingCluster: no server is running');
    const session = await RawZooKeeperSession.connect(
      running.map((member) => member.connectString).join(','),
      { requestTimeoutMs: 20_000 },
    );
    try {
      await session.addAuth(auth.scheme, auth.auth);
      return await session.reconfig({
        joining: change.joining?.join(','),
        leaving: change.leaving?.join(','),
      });
    } catch (error) {
      // Removing the leader restarts every member's following: the reply is lost with the
      // connection, though the change is made. What the ensemble then holds is the answer.
      if (
        !(error instanceof RawZooKeeperError) ||
        error.code !== ZooKeeperErrorCode.CONNECTION_LOSS
      ) {
        throw error;
      }
      return (await this.#configOnceServing(timing.ms(30_000))).map((line) => `${line}\n`).join('');
    } finally {
      await session.close();
    }
  }

  /**
   * Starts a new member (the next index, new ports) that knows the current configuration and
   * itself, waits until it follows the leader, then reconfigures it into the ensemble. Resolves
   * the new member. Needs `reconfigEnabled`.
   */
  async addServer(): Promise<ClusterServer> {
    this.#reconfigAuth();
    const setup = this.#setup;
    if (setup === undefined) throw new Error('TestingCluster: not started');
    const index = this.#members.length;
    const [clientPort = 0, quorum = 0, election = 0] = await freePorts(3);
    const peer = { quorum, election };
    this.#peers[index] = peer;
    const current = await this.#currentConfigLines();
    const line = memberLine(index + 1, peer, clientPort);
    const member = new ClusterMember({
      ...setup,
      index,
      clientPort,
      dynamicConfig: [...current, line].map((entry) => `${entry}\n`).join(''),
    });
    this.#members.push(member);
    const jvm = member.launch();
    try {
      await member.waitServing(this.#startTimeoutMs());
      await this.reconfigure({ joining: [line] });
    } catch (error) {
      await jvm.kill();
      throw error;
    }
    return member;
  }

  /**
   * Reconfigures server `index` out of the ensemble (its JVM keeps running: stop it with
   * killServer). Resolves the new /zookeeper/config data. Needs `reconfigEnabled`.
   */
  removeServer(index: number): Promise<string> {
    return this.reconfigure({ leaving: [this.#member(index).id] });
  }

  /** The `server.N=` lines of the configuration the running members hold now. */
  async #currentConfigLines(connectTimeoutMs = 5000): Promise<string[]> {
    const running = this.#members.filter((member) => member.running);
    const session = await RawZooKeeperSession.connect(
      running.map((member) => member.connectString).join(','),
      { connectTimeoutMs },
    );
    try {
      const data = (await session.getData('/zookeeper/config')).toString('utf8');
      return data.split('\n').filter((entry) => entry.startsWith('server.'));
    } finally {
      await session.close();
    }
  }

  /**
   * The `server.N=` lines once some member serves again, within `timeoutMs`. While the members
   * elect a new leader every one of them closes a new connection before its ConnectResponse, so
   * a single round over them can fail: read again until one answers.
   */
  async #configOnceServing(timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.#currentConfigLines();
      } catch (error) {
        if (!(error instanceof RawZooKeeperError) || Date.now() >= deadline) throw error;
        await delay(100);
      }
    }
  }

  #reconfigAuth(): { scheme: 'digest'; auth: string } {
    const auth = this.superAuth;
    if (auth === undefined) {
      throw new Error('TestingCluster: start it with reconfigEnabled: true to reconfigure');
    }
    return auth;
  }

  #peer(index: number): PeerPorts {
    const peer = this.#peers[index];
    if (peer === undefined) throw new Error(`TestingCluster: no ports known for server ${index}`);
    return peer;
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
    if (this.#ownsMaterial) await this.tls?.close();
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

/** A member as a dynamic configuration (and reconfig's `joining`) names it. */
function memberLine(id: number, peer: PeerPorts, clientPort: number): string {
  return `server.${id}=${LOOPBACK}:${peer.quorum}:${peer.election}:participant;${LOOPBACK}:${clientPort}`;
}

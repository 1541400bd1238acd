// A real standalone ZooKeeper for one test file, in the spirit of Curator's TestingServer:
// free loopback port, temp data dir outside the repo, and the faults tests need (stop and
// restart with the same port and data, pause as a hung server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fourLetterWord } from './four-letter-word.js';
import { freePorts, LOOPBACK } from './free-port.js';
import { processReaper } from './process-reaper.js';
import { timing } from './timing.js';
import {
  CONFIG_DEFAULTS,
  serverJvmFlags,
  writeZooCfg,
  type ZooKeeperConfigOptions,
} from './zoo-cfg.js';
import { findJava, zookeeperClasspath } from './zookeeper-classpath.js';
import { saslServerJvmFlags, type SaslServerOptions } from './sasl-jaas.js';
import { ZooKeeperProcess, ZooKeeperStartError } from './zookeeper-process.js';
import { secureClientPortConfig, type SecureClientPortOptions } from './secure-client-port.js';
import { TlsMaterial } from './tls-material.js';

const MAIN_CLASS = 'org.apache.zookeeper.server.ZooKeeperServerMain';
/** Start-up attempts when another process grabs the free port first. */
const BIND_ATTEMPTS = 3;

export interface TestingServerOptions extends ZooKeeperConfigOptions {
  /** Client port. Default: a free port, with a retry on a bind conflict. */
  port?: number;
  /**
   * Also serve a secure (TLS) client port, `securePort`, beside the plaintext one (which the
   * harness's four-letter words use): `true` for a fresh TlsMaterial and `clientAuth: 'want'`.
   * Sessions with a client certificate are authenticated as `x509:<subject DN>`.
   */
  tls?: true | SecureClientPortOptions;
  /**
   * Accept SASL DIGEST-MD5 for these users (a JAAS `Server` section and ZooKeeper's
   * SASLAuthenticationProvider), and with `required: true` require it of every session.
   * Default: no SASL.
   */
  sasl?: SaslServerOptions;
}

/**
 * A real standalone ZooKeeper (Curator's `TestingServer`) on a free loopback port with a temp
 * data dir. It can stop and restart on the same port and data, or pause as a hung server; a
 * watchdog kills the JVM and removes the dir if the test process dies.
 *
 * @example
 * ```ts
 * await using server = await TestingServer.start();
 * const client = createFramework({ connectString: server.connectString });
 * await client.start();
 * await server.stop(); // clients see SUSPENDED
 * await server.restart(); // same port and data: they reconnect to the same session
 * ```
 */
export class TestingServer implements AsyncDisposable {
  /** Always loopback: the server listens on 127.0.0.1 only. */
  readonly host = LOOPBACK;
  /** The client port; kept across stop/restart. */
  readonly port: number;
  /** The temp dir holding zoo.cfg, the log and the data; removed by close(). */
  readonly tempDir: string;
  /** ZooKeeper's dataDir (snapshots and transaction log), kept across stop/restart. */
  readonly dataDir: string;
  /** The secure client port (TLS), when started with `tls`; kept across stop/restart. */
  readonly securePort: number | undefined;
  /** The certificates of the secure port, when started with `tls`. */
  readonly tls: TlsMaterial | undefined;
  /** True when the material was made here, and is closed with the server. */
  readonly #ownsMaterial: boolean;
  #process: ZooKeeperProcess;
  #launch: () => ZooKeeperProcess;
  #options: TestingServerOptions;
  #closed = false;

  private constructor(
    port: number,
    tempDir: string,
    jvm: ZooKeeperProcess,
    launch: () => ZooKeeperProcess,
    options: TestingServerOptions,
    secure: { port: number; material: TlsMaterial; owned: boolean } | undefined,
  ) {
    this.port = port;
    this.securePort = secure?.port;
    this.tls = secure?.material;
    this.#ownsMaterial = secure?.owned ?? false;
    this.tempDir = tempDir;
    this.dataDir = join(tempDir, 'data');
    this.#process = jvm;
    this.#launch = launch;
    this.#options = options;
  }

  /** Starts a server and resolves once it serves requests (`srvr` reports its Mode). */
  static async start(options: TestingServerOptions = {}): Promise<TestingServer> {
    const classpath = zookeeperClasspath({ jarDir: options.jarDir });
    const java = findJava();
    const jvmFlags = serverJvmFlags(options);
    const startTimeoutMs = timing.ms(options.startTimeoutMs ?? CONFIG_DEFAULTS.startTimeoutMs);
    const tls = options.tls === true ? {} : options.tls;
    const material = tls && (tls.material ?? (await TlsMaterial.create()));
    for (let attempt = 1; ; attempt++) {
      const tempDir = mkdtempSync(join(tmpdir(), 'zkrecipes-server-'));
      processReaper.trackDir(tempDir);
      const ports = await freePorts(material ? 2 : 1);
      const port = options.port ?? ports[0] ?? 0;
      const securePort = material ? ports[1] : undefined;
      const configFile = join(tempDir, 'zoo.cfg');
      const saslFlags = options.sasl ? saslServerJvmFlags(tempDir, options.sasl) : [];
      const secureLines =
        material && securePort !== undefined
          ? secureClientPortConfig(material, securePort, tls?.clientAuth)
          : {};
      writeZooCfg(
        configFile,
        { ...options, properties: { ...secureLines, ...options.properties } },
        { dataDir: join(tempDir, 'data'), clientPort: port },
      );
      const launch = (): ZooKeeperProcess =>
        ZooKeeperProcess.spawn({
          java,
          classpath,
          mainClass: MAIN_CLASS,
          configFile,
          jvmFlags: [...saslFlags, ...jvmFlags],
          logFile: join(tempDir, 'zookeeper.log'),
          cleanupDir: tempDir,
        });
      const jvm = launch();
      try {
        await jvm.waitUntilServing({ ...serving(port), timeoutMs: startTimeoutMs });
        const secure =
          material && securePort !== undefined
            ? { port: securePort, material, owned: tls.material === undefined }
            : undefined;
        return new TestingServer(port, tempDir, jvm, launch, options, secure);
      } catch (error) {
        await jvm.kill();
        removeDir(tempDir);
        const retry = error instanceof ZooKeeperStartError && error.bindConflict;
        if (!retry || options.port !== undefined || attempt >= BIND_ATTEMPTS) {
          if (tls?.material === undefined) await material?.close();
          throw error;
        }
      }
    }
  }

  /** `127.0.0.1:<port>`, for any ZooKeeper client. */
  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  /** `127.0.0.1:<securePort>`; throws unless the server was started with `tls`. */
  get secureConnectString(): string {
    if (this.securePort === undefined) {
      throw new Error('TestingServer.secureConnectString: start the server with the tls option');
    }
    return `${this.host}:${this.securePort}`;
  }

  /** The JVM's pid while it runs (also while paused); undefined when stopped or closed. */
  get pid(): number | undefined {
    return this.#process.running ? this.#process.pid : undefined;
  }

  /** True while the JVM runs, paused or not. */
  get running(): boolean {
    return this.#process.running;
  }

  /** True between pause() and resume(). */
  get paused(): boolean {
    return this.#process.paused;
  }

  /** Graceful stop (SIGTERM, SIGKILL after `stopTimeoutMs`). Port and data are kept. */
  async stop(): Promise<void> {
    this.#assertOpen('stop');
    const graceMs = timing.ms(this.#options.stopTimeoutMs ?? CONFIG_DEFAULTS.stopTimeoutMs);
    await this.#process.stop(graceMs);
  }

  /**
   * Stops the server if it runs, then starts it on the same port with the same data, and
   * waits until it serves again. Sessions whose timeout has not passed are still valid afterwards.
   */
  async restart(): Promise<void> {
    this.#assertOpen('restart');
    if (this.#process.running) await this.stop();
    this.#process = this.#launch();
    const timeoutMs = timing.ms(this.#options.startTimeoutMs ?? CONFIG_DEFAULTS.startTimeoutMs);
    try {
      await this.#process.waitUntilServing({ ...serving(this.port), timeoutMs });
    } catch (error) {
      await this.#process.kill();
      throw error;
    }
  }

  /** SIGSTOP: connections stay open but nothing is answered, like a hung server. */
  pause(): Promise<void> {
    this.#assertOpen('pause');
    return this.#process.pause();
  }

  /** SIGCONT after pause(). */
  resume(): void {
    this.#assertOpen('resume');
    this.#process.resume();
  }

  /** Sends a four-letter word (`srvr`, `dump`, `cons`, ...) and resolves with the reply. */
  fourLetter(cmd: string, options: { timeoutMs?: number } = {}): Promise<string> {
    const timeoutMs = timing.ms(options.timeoutMs ?? 5000);
    return fourLetterWord(this.host, this.port, cmd, { timeoutMs });
  }

  /** The last lines of the server's output in its current (or last) run. */
  logTail(lines = 30): string {
    return this.#process.logTail(lines);
  }

  /** Kills the JVM and deletes the temp dir. A second call does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#process.kill();
    removeDir(this.tempDir);
    if (this.#ownsMaterial) await this.tls?.close();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #assertOpen(operation: string): void {
    if (this.#closed) throw new Error(`TestingServer.${operation}(): the server is closed`);
  }
}

// `ruok` answers `imok` before the server serves requests; `srvr` shows a Mode only once
// it does.
function serving(port: number): {
  host: string;
  port: number;
  command: string;
  isReady: (reply: string) => boolean;
} {
  return {
    host: LOOPBACK,
    port,
    command: 'srvr',
    isReady: (reply) => /^Mode: standalone$/m.test(reply),
  };
}

function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
  processReaper.untrackDir(dir);
}

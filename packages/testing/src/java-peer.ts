// Interop tests run real Apache Curator (Debian's libcurator-recipes-java) beside our code.
// A peer is a small Java program, compiled on first use, that reads one command per line on
// stdin and answers one line per command on stdout; lines starting with `EVENT ` are
// asynchronous notifications (e.g. "EVENT leader true"). It must exit when stdin closes, so a
// peer never outlives the test process, whatever way that ends.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_JAR_DIR, findJava } from './zookeeper-classpath.js';
import {
  javaClientTlsProperties,
  NETTY_CLIENT_JARS,
  systemPropertyFlags,
  type JavaPeerTlsOptions,
} from './java-peer-tls.js';
import { timing } from './timing.js';
import { saslClientJvmFlags, type SaslClientCredentials } from './sasl-jaas.js';

/** The jars a Curator 5.4 client needs, as Debian names them. */
export const CURATOR_CLIENT_JARS = [
  'curator-client.jar',
  'curator-framework.jar',
  'curator-recipes.jar',
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'guava.jar',
  'slf4j-api.jar',
  'slf4j-nop.jar',
] as const;

/**
 * Curator's jars plus `extraJars` (a name is looked up in the Debian jar directory, a path
 * with a "/" is taken as is).
 */
function curatorClasspath(extraJars: readonly string[] = []): string {
  const jars = [...CURATOR_CLIENT_JARS, ...extraJars].map((jar) =>
    jar.includes('/') ? jar : join(DEFAULT_JAR_DIR, jar),
  );
  const missing = jars.filter((jar) => !existsSync(jar));
  if (missing.length > 0) {
    throw new Error(
      `Curator jars not found (${missing.join(', ')}). On Debian or Ubuntu: ` +
        '`apt-get update && apt-get install -y libcurator-recipes-java` (and the package of ' +
        'any extra jar, e.g. libcurator-discovery-java).',
    );
  }
  return jars.join(':');
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}):\n${stderr}`)),
    );
  });
}

/**
 * Compiles a Java source against the Curator jars into a cache directory keyed by its
 * content, so repeated runs (and parallel test files) compile it once.
 */
export async function compileJavaPeer(
  sourcePath: string,
  extraJars: readonly string[] = [],
): Promise<string> {
  const source = readFileSync(sourcePath);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const classesDir = join(tmpdir(), `zkrecipes-java-${hash}`);
  if (existsSync(classesDir)) return classesDir;
  const building = `${classesDir}.${process.pid}.tmp`;
  mkdirSync(building, { recursive: true });
  try {
    const javac = join(findJava().replace(/java$/, ''), 'javac');
    await run(existsSync(javac) ? javac : 'javac', [
      '-Xlint:-path',
      '-d',
      building,
      '-cp',
      curatorClasspath(extraJars),
      sourcePath,
    ]);
    // Another process may have finished first; either copy is the same.
    if (!existsSync(classesDir)) renameSync(building, classesDir);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return classesDir;
}

/** Options of {@link JavaPeer.start}. */
export interface JavaPeerOptions {
  /** Path of the `.java` file; the class name is the file name. */
  readonly source: string;
  /** Arguments for `main`, e.g. the connect string. */
  readonly args?: readonly string[];
  /** Default 10000 ms (scaled) for each answer. */
  readonly replyTimeoutMs?: number;
  /**
   * Jars beyond Curator's client and recipes, for compiling and running, e.g.
   * `['curator-x-discovery.jar', 'jackson-databind.jar']`: a name is looked up in
   * /usr/share/java, a path is taken as is. Default: none.
   */
  readonly extraJars?: readonly string[];
  /**
   * Connect the peer's ZooKeeper client (and so Curator) over TLS, to a secure client port
   * (`server.secureConnectString` in `args`): sets `zookeeper.client.secure`, Netty's client
   * socket and PEM trust and key stores, and puts Netty's jars on the classpath. Default: plaintext.
   */
  readonly tls?: JavaPeerTlsOptions;
  /** JVM system properties (`-Dkey=value`), after (and over) the ones `tls` sets. Default: none. */
  readonly systemProperties?: Readonly<Record<string, string>>;
  /**
   * SASL DIGEST-MD5 credentials: the peer's ZooKeeper client authenticates with them (a JAAS
   * `Client` section with DigestLoginModule, `zookeeper.sasl.client=true`), as a Java service
   * configured for a SASL server does. Default: none.
   */
  readonly sasl?: SaslClientCredentials;
}

/** A running Java Curator peer speaking the line protocol. */
export class JavaPeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: string[] = [];
  readonly #waiters: (() => void)[] = [];
  readonly #replyTimeoutMs: number;
  #stderr = '';
  #exited = false;

  private constructor(child: ChildProcessWithoutNullStreams, replyTimeoutMs: number) {
    this.#child = child;
    this.#replyTimeoutMs = replyTimeoutMs;
    createInterface({ input: child.stdout }).on('line', (line) => {
      this.#lines.push(line);
      this.#waiters.splice(0).forEach((wake) => wake());
    });
    child.stderr.on(
      'data',
      (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString()).slice(-4000)),
    );
    child.on('exit', () => {
      this.#exited = true;
      this.#waiters.splice(0).forEach((wake) => wake());
    });
  }

  /** Compiles `source` against Curator's jars (cached), launches it and resolves once it runs. */
  static async start(options: JavaPeerOptions): Promise<JavaPeer> {
    const classesDir = await compileJavaPeer(options.source, options.extraJars);
    const mainClass = basename(options.source).replace(/\.java$/, '');
    const jars = [...(options.extraJars ?? []), ...(options.tls ? NETTY_CLIENT_JARS : [])];
    const properties = {
      ...(options.tls && javaClientTlsProperties(options.tls)),
      ...options.systemProperties,
    };
    // The JAAS file lives as long as the peer: the JVM reads it at its first connection.
    const jaasDir = options.sasl ? mkdtempSync(join(tmpdir(), 'zkrecipes-peer-jaas-')) : undefined;
    const saslFlags = jaasDir && options.sasl ? saslClientJvmFlags(jaasDir, options.sasl) : [];
    const child = spawn(
      findJava(),
      [
        ...saslFlags,
        '-Xmx128m',
        '-XX:TieredStopAtLevel=1',
        ...systemPropertyFlags(properties),
        '-cp',
        `${classesDir}:${curatorClasspath(jars)}`,
        mainClass,
        ...(options.args ?? []),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    if (jaasDir) child.once('exit', () => rmSync(jaasDir, { recursive: true, force: true }));
    const peer = new JavaPeer(child, timing.ms(options.replyTimeoutMs ?? 10_000));
    await peer.expectLine(/^READY/);
    return peer;
  }

  /** Sends a command and resolves its answer (the next line that is not an EVENT). */
  async request(command: string): Promise<string> {
    this.#child.stdin.write(`${command}\n`);
    const answer = await this.#take((line) => !line.startsWith('EVENT '), `answer to '${command}'`);
    if (answer.startsWith('ERR')) throw new Error(`Java peer: ${answer}`);
    return answer;
  }

  /** Waits for (and consumes) the first line matching `pattern`, answers and events alike. */
  expectLine(pattern: RegExp): Promise<string> {
    return this.#take((line) => pattern.test(line), String(pattern));
  }

  /** The peer's process id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /**
   * Sends `signal` (default SIGKILL: the process dies without closing its Curator client, so
   * its session lives on until the server expires it) and resolves once it has exited.
   */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.kill(signal);
    await exited;
  }

  /** Closes stdin (the peer exits), killing it if it does not within 5 s. */
  async close(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  async #take(match: (line: string) => boolean, what: string): Promise<string> {
    const deadline = performance.now() + this.#replyTimeoutMs;
    for (;;) {
      const index = this.#lines.findIndex(match);
      if (index >= 0) return this.#lines.splice(index, 1)[0]!;
      if (this.#exited)
        throw new Error(`Java peer exited before ${what}; stderr:\n${this.#stderr}`);
      const remaining = deadline - performance.now();
      if (remaining <= 0)
        throw new Error(`Java peer: no ${what} within ${this.#replyTimeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

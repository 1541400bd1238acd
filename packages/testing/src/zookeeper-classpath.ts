// The harness runs the ZooKeeper server Debian ships (`apt-get install zookeeper`), not a
// download: the jars sit in /usr/share/java. When they or java are missing, the error says how
// to get them on the user's machine (a Debian package, or an Apache ZooKeeper download named by
// ZOOKEEPER_CLASSPATH), because that is the first thing a new user will hit.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian's `zookeeper` package and its dependencies put their jars. */
export const DEFAULT_JAR_DIR = '/usr/share/java';

/** Environment variable holding a ready-made classpath; it replaces the jar lookup. */
export const ZOOKEEPER_CLASSPATH_ENV = 'ZOOKEEPER_CLASSPATH';

/** The jars ZooKeeper 3.8's server needs at run time, as Debian names them. */
export const ZOOKEEPER_JARS = [
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'slf4j-api.jar',
  'slf4j-simple.jar',
  'commons-io.jar',
  'metrics-core.jar',
  'snappy-java.jar',
  'netty-buffer.jar',
  'netty-codec.jar',
  'netty-common.jar',
  'netty-handler.jar',
  'netty-resolver.jar',
  'netty-transport.jar',
  'netty-transport-native-epoll.jar',
  'netty-transport-native-unix-common.jar',
] as const;

/** Options of {@link zookeeperClasspath}. */
export interface ZooKeeperClasspathOptions {
  /**
   * Directory holding the jars. When given it wins over `ZOOKEEPER_CLASSPATH`, so a caller
   * can point at a specific install. Default: `ZOOKEEPER_CLASSPATH`, else /usr/share/java.
   */
  jarDir?: string;
  /** Environment to read `ZOOKEEPER_CLASSPATH` from. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The classpath for ZooKeeper's server. Throws an Error naming the missing jars, the Debian
 * package that installs them and the ZOOKEEPER_CLASSPATH alternative.
 */
export function zookeeperClasspath(options: ZooKeeperClasspathOptions = {}): string {
  const { jarDir, env = process.env } = options;
  const fromEnv = env[ZOOKEEPER_CLASSPATH_ENV];
  if (jarDir === undefined && fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv;
  const dir = jarDir ?? DEFAULT_JAR_DIR;
  const jars = ZOOKEEPER_JARS.map((jar) => join(dir, jar));
  const missing = ZOOKEEPER_JARS.filter((_, i) => !existsSync(jars[i] ?? ''));
  if (missing.length > 0) {
    throw new Error(
      `ZooKeeper jars not found in ${dir} (missing: ${missing.join(', ')}). ` +
        'On Debian or Ubuntu: `apt-get update && apt-get install -y zookeeper`. ' +
        'Elsewhere: download and unpack Apache ZooKeeper 3.8 (apache-zookeeper-3.8.x-bin.tar.gz) ' +
        `and set ${ZOOKEEPER_CLASSPATH_ENV}='<its directory>/lib/*'.`,
    );
  }
  return jars.join(':');
}

/** Options of {@link findJava}. */
export interface FindJavaOptions {
  /** Environment whose PATH is searched. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Absolute path of the `java` executable on PATH; throws naming the package to install. */
export function findJava(options: FindJavaOptions = {}): string {
  const { env = process.env } = options;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'java');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking along PATH.
    }
  }
  throw new Error(
    'java not found on PATH: ZooKeeper needs a Java runtime. On Debian or Ubuntu: ' +
      '`apt-get update && apt-get install -y default-jre-headless`; elsewhere install a JDK or ' +
      'JRE and put its bin directory on PATH.',
  );
}

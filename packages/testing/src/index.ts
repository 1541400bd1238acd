// Public surface of @zkrecipes/testing: explicit names only, types exported as types.
export { TestingServer, type TestingServerOptions } from './testing-server.js';
export {
  TestingCluster,
  type ClusterReconfig,
  type SuperAuth,
  type TestingClusterOptions,
} from './testing-cluster.js';
export type { ClusterServer } from './cluster-member.js';
export type { ZooKeeperConfigOptions } from './zoo-cfg.js';
export type { SaslClientCredentials, SaslServerOptions } from './sasl-jaas.js';
export { killSession, type KillSessionOptions } from './kill-session.js';
export { sessionIdHex, type SessionCredentials, type SessionOwner } from './session-credentials.js';
export { FaultProxy, type FaultProxyOptions } from './fault-proxy.js';
export type { LostReply, LoseReplyOptions } from './lost-reply-trap.js';
export type { FaultMode } from './proxied-connection.js';
export { waitFor, type WaitForOptions, type Falsy } from './wait-for.js';
export { timing, parseTimingScale, TIMING_SCALE_ENV } from './timing.js';
export { uniquePath } from './unique-path.js';
export { freePort, freePorts } from './free-port.js';
export {
  fourLetterWord,
  FourLetterWordTimeoutError,
  mntr,
  type FourLetterWordOptions,
} from './four-letter-word.js';
export {
  zookeeperClasspath,
  findJava,
  DEFAULT_JAR_DIR,
  ZOOKEEPER_CLASSPATH_ENV,
  ZOOKEEPER_JARS,
  type ZooKeeperClasspathOptions,
  type FindJavaOptions,
} from './zookeeper-classpath.js';
export { ZooKeeperStartError } from './zookeeper-process.js';
export {
  RawZooKeeperSession,
  type RawWatch,
  type RawWatchEvent,
  type RawZooKeeperSessionOptions,
} from './wire/raw-zookeeper-session.js';
export type { HostPort } from './wire/connect-handshake.js';
export {
  RawZooKeeperError,
  hasRawErrorCode,
  type RawZooKeeperErrorCode,
} from './wire/raw-zookeeper-error.js';
export { CreateMode, ZooKeeperErrorCode, errorCodeName } from './wire/protocol.js';
export {
  compileJavaPeer,
  CURATOR_CLIENT_JARS,
  JavaPeer,
  type JavaPeerOptions,
} from './java-peer.js';
export { javaClientTlsProperties, type JavaPeerTlsOptions } from './java-peer-tls.js';
export { TlsMaterial, type TlsIdentity, type TlsMaterialOptions } from './tls-material.js';
export type { ClientAuth, SecureClientPortOptions } from './secure-client-port.js';

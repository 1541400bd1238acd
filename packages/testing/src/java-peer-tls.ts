// What a Java peer's ZooKeeper client needs to connect over TLS: ZooKeeper's client reads its
// TLS settings from system properties (ZKClientConfig's defaults, so a Curator client made
// with CuratorFrameworkFactory picks them up), and its TLS socket is Netty's, whose jars are
// not among Curator's.
import type { TlsIdentity } from './tls-material.js';
import { ZOOKEEPER_JARS } from './zookeeper-classpath.js';

/** The `tls` option of JavaPeer. */
export interface JavaPeerTlsOptions {
  /** The CA the server's certificate is checked against, PEM (`TlsMaterial.caCertFile`). */
  readonly caCertFile: string;
  /**
   * The client certificate the peer presents (`material.client('alice')`): the session is
   * then `x509:<its subjectDn>`. Default: none (a server with `clientAuth: 'need'` refuses it).
   */
  readonly client?: Pick<TlsIdentity, 'keyStoreFile'>;
}

/** The jars of Netty's TLS socket, as Debian names them (the ones ZooKeeper's server runs with). */
export const NETTY_CLIENT_JARS: readonly string[] = ZOOKEEPER_JARS.filter((jar) =>
  jar.startsWith('netty-'),
);

/** The system properties that make ZooKeeper's Java client connect over TLS. */
export function javaClientTlsProperties(tls: JavaPeerTlsOptions): Record<string, string> {
  return {
    'zookeeper.client.secure': 'true',
    'zookeeper.clientCnxnSocket': 'org.apache.zookeeper.ClientCnxnSocketNetty',
    'zookeeper.ssl.trustStore.location': tls.caCertFile,
    'zookeeper.ssl.trustStore.type': 'PEM',
    ...(tls.client && {
      'zookeeper.ssl.keyStore.location': tls.client.keyStoreFile,
      'zookeeper.ssl.keyStore.type': 'PEM',
    }),
  };
}

/** `-Dkey=value` for each property. */
export function systemPropertyFlags(properties: Readonly<Record<string, string>>): string[] {
  return Object.entries(properties).map(([key, value]) => `-D${key}=${value}`);
}

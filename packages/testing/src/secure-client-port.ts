// The zoo.cfg lines of a secure client port: Netty's connection factory (the NIO one has no
// TLS), the port, PEM key and trust stores from a TlsMaterial, and the x509 authentication
// provider, which names a session after its client certificate's subject.
import type { TlsMaterial } from './tls-material.js';

/** Whether the server asks clients for a certificate (ZooKeeper's `ssl.clientAuth`). */
export type ClientAuth = 'need' | 'want' | 'none';

/** The `tls` option of TestingServer. */
export interface SecureClientPortOptions {
  /**
   * The certificates: the server's key store is `material.server`, its trust store (for
   * client certificates) `material.caCertFile`. Default: a fresh `TlsMaterial.create()`,
   * closed with the server.
   */
  readonly material?: TlsMaterial;
  /**
   * `need`: a client without a certificate signed by the CA is refused; `want`: a certificate
   * is asked for and checked when given; `none`: not asked for. Default `'want'`.
   */
  readonly clientAuth?: ClientAuth;
}

const CLIENT_AUTH_MODES: readonly ClientAuth[] = ['need', 'want', 'none'];

/** The zoo.cfg lines for a secure client port on `securePort` (loopback). */
export function secureClientPortConfig(
  material: TlsMaterial,
  securePort: number,
  clientAuth: ClientAuth = 'want',
): Record<string, string> {
  if (!CLIENT_AUTH_MODES.includes(clientAuth)) {
    throw new TypeError(`tls.clientAuth must be one of ${CLIENT_AUTH_MODES.join(', ')}`);
  }
  return {
    serverCnxnFactory: 'org.apache.zookeeper.server.NettyServerCnxnFactory',
    secureClientPort: String(securePort),
    secureClientPortAddress: '127.0.0.1',
    'ssl.keyStore.location': material.server.keyStoreFile,
    'ssl.keyStore.type': 'PEM',
    'ssl.trustStore.location': material.caCertFile,
    'ssl.trustStore.type': 'PEM',
    'ssl.clientAuth': clientAuth,
    'authProvider.x509': 'org.apache.zookeeper.server.auth.X509AuthenticationProvider',
  };
}

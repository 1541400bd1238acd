import type { Buffer } from 'node:buffer';

/**
 * A SASL mechanism on the client side, the pluggable part of the `sasl` option. The framework
 * tunnels its tokens through ZooKeeper's `sasl` request (op 102) on every new connection, after
 * the handshake and before any other request: `start()` gives the first token, each token the
 * server answers with goes to `evaluate()`, until `complete` is true.
 *
 * One object serves every connection of a client, one exchange at a time: `start()` begins a
 * new exchange and must forget the previous one. Throwing (or rejecting) from `start()` or
 * `evaluate()` fails the authentication: the client stops with an AuthFailedError that carries
 * the message. {@link DigestMd5Mechanism} is the built-in implementation.
 *
 * @example
 * ```ts
 * const mechanism: SaslMechanism = {
 *   name: 'PLAIN-ISH',
 *   complete: false,
 *   start() { this.complete = false; return Buffer.from('token'); },
 *   evaluate(challenge) { this.complete = true; return undefined; },
 * };
 * createFramework({ connectString, sasl: mechanism });
 * ```
 */
export interface SaslMechanism {
  /** The mechanism's SASL name, e.g. `'DIGEST-MD5'`; used in logs and errors. */
  readonly name: string;
  /** Who authenticates, if the mechanism wants errors to say (`DIGEST-MD5 as 'bob'`). */
  readonly username?: string;
  /**
   * Begins an exchange (called once per connection) and returns the first token to send: an
   * empty buffer for a mechanism without an initial response, as DIGEST-MD5.
   */
  start(): Buffer | Promise<Buffer>;
  /**
   * Answers the server's token. Returns the next token to send, or undefined when there is
   * nothing to send (then `complete` must be true). Throws when the server's token is wrong.
   */
  evaluate(challenge: Buffer): Buffer | undefined | Promise<Buffer | undefined>;
  /** True once this exchange succeeded (for DIGEST-MD5: the server proved it knows the password). */
  readonly complete: boolean;
}

/** The built-in mechanism, by name. */
export interface DigestMd5SaslOptions {
  /** The built-in mechanism's name. */
  readonly mechanism: 'DIGEST-MD5';
  /** The user, as in the server's JAAS `Server` section (`user_<name>="<password>"`). */
  readonly username: string;
  /** The user's password; it never crosses the wire (DIGEST-MD5 sends a digest of it). */
  readonly password: string;
  /** The SASL protocol of the digest-uri. Default `'zookeeper'`, as ZooKeeper's Java client. */
  readonly protocol?: string;
  /** The server name of the digest-uri. Default `'zk-sasl-md5'`, as ZooKeeper's Java client. */
  readonly serverName?: string;
}

/** The `sasl` option: DIGEST-MD5 by name, or a mechanism of your own. */
export type SaslOptions = DigestMd5SaslOptions | SaslMechanism;

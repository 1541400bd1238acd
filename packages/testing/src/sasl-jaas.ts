// SASL for the harness's JVMs: the JAAS files and system properties that make a ZooKeeper
// server accept (or require) DIGEST-MD5, and that make a Java client (a JavaPeer) use it.
// Written into a directory the caller owns and removes (the server's or the peer's temp dir).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** DIGEST-MD5 users of a server, and whether it requires SASL of every session. */
export interface SaslServerOptions {
  /** User name to password: the JAAS `Server` section's `user_<name>="<password>"` entries. */
  readonly users: Readonly<Record<string, string>>;
  /**
   * Close every session that sends anything but SASL before authenticating with it
   * (`zookeeper.enforce.auth.enabled=true`, `zookeeper.enforce.auth.schemes=sasl`; ZooKeeper
   * 3.8 also knows the older `zookeeper.sessionRequireClientSASLAuth=true`, which means the
   * same). The server answers such a request with SESSION_CLOSED_REQUIRE_SASL_AUTH (-124).
   * Default false: SASL is accepted, not required.
   */
  readonly required?: boolean;
  /** A user who is ZooKeeper's super user once authenticated (`zookeeper.superUser`). */
  readonly superUser?: string;
}

/** DIGEST-MD5 credentials of a Java client: its JAAS `Client` section. */
export interface SaslClientCredentials {
  /** The user, one of the server's `users`. */
  readonly username: string;
  /** The user's password. */
  readonly password: string;
}

const DIGEST_LOGIN_MODULE = 'org.apache.zookeeper.server.auth.DigestLoginModule';
const SASL_PROVIDER = 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider';

/** A JAAS option value, quoted; refuses what the JAAS parser cannot take back unchanged. */
function jaasString(what: string, value: string): string {
  if (/["\\\n\r]/.test(value)) {
    throw new TypeError(`${what} must not contain a quote, backslash or line break for JAAS`);
  }
  return `"${value}"`;
}

/** Writes `server-jaas.conf` into `dir` and returns the server's JVM flags for it. */
export function saslServerJvmFlags(dir: string, options: SaslServerOptions): string[] {
  const users = Object.entries(options.users);
  if (users.length === 0) throw new TypeError('sasl.users must name at least one user');
  const entries = users.map(([name, password]) => {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) {
      throw new TypeError(`sasl user name ${JSON.stringify(name)}: letters, digits, . _ - only`);
    }
    return `  user_${name}=${jaasString(`the password of ${name}`, password)}`;
  });
  const file = join(dir, 'server-jaas.conf');
  writeFileSync(file, `Server {\n  ${DIGEST_LOGIN_MODULE} required\n${entries.join('\n')};\n};\n`);
  const flags = [
    `-Djava.security.auth.login.config=${file}`,
    `-Dzookeeper.authProvider.sasl=${SASL_PROVIDER}`,
  ];
  if (options.required === true) {
    flags.push('-Dzookeeper.enforce.auth.enabled=true', '-Dzookeeper.enforce.auth.schemes=sasl');
  }
  if (options.superUser !== undefined) flags.push(`-Dzookeeper.superUser=${options.superUser}`);
  return flags;
}

/** Writes `client-jaas.conf` into `dir` and returns a Java client's JVM flags for it. */
export function saslClientJvmFlags(dir: string, credentials: SaslClientCredentials): string[] {
  const file = join(dir, 'client-jaas.conf');
  writeFileSync(
    file,
    `Client {\n  ${DIGEST_LOGIN_MODULE} required\n` +
      `  username=${jaasString('the user name', credentials.username)}\n` +
      `  password=${jaasString('the password', credentials.password)};\n};\n`,
  );
  return [`-Djava.security.auth.login.config=${file}`, '-Dzookeeper.sasl.client=true'];
}

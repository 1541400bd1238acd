// Certificates for TLS tests, made at test time with openssl into a temp dir: a CA of its
// own, a server certificate for the loopback address, and client certificates for a few
// identities. Nothing is checked in, and every run gets fresh keys.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { processReaper } from './process-reaper.js';

const run = promisify(execFile);

/** A certificate and its private key, as PEM text and as files. */
export interface TlsIdentity {
  /** The name it was made for, e.g. `'alice'` (its CN). */
  readonly name: string;
  /** The certificate, PEM. */
  readonly cert: string;
  /** The private key (unencrypted PKCS#8), PEM. */
  readonly key: string;
  /** The certificate file. */
  readonly certFile: string;
  /** The private key file. */
  readonly keyFile: string;
  /** The key, then the certificate, in one file: a PEM key store as ZooKeeper reads one. */
  readonly keyStoreFile: string;
  /**
   * The subject as ZooKeeper's X509AuthenticationProvider names the session
   * (RFC 2253, most specific first), e.g. `CN=alice,OU=clients,O=zkrecipes`: the id of an
   * `x509` ACL for this certificate.
   */
  readonly subjectDn: string;
}

/** Options of {@link TlsMaterial.create}. */
export interface TlsMaterialOptions {
  /** The client identities to make, one certificate each. Default `['alice', 'bob']`. */
  readonly clients?: readonly string[];
  /**
   * The names the server certificate is valid for (subjectAltName entries, `IP:` or `DNS:`).
   * Default `['IP:127.0.0.1', 'DNS:localhost']`.
   */
  readonly serverNames?: readonly string[];
  /** Days the certificates are valid. Default 2. */
  readonly days?: number;
}

/**
 * A CA, a server certificate and client certificates, made with openssl into a temp dir
 * (removed by `close()`, or when the process exits). A second `create()` makes an unrelated
 * CA: what a test of a wrong CA needs.
 *
 * @example
 * ```ts
 * await using material = await TlsMaterial.create();
 * const alice = material.client('alice');
 * createFramework({ connectString, tls: { ca: material.caCert, cert: alice.cert, key: alice.key } });
 * ```
 */
export class TlsMaterial implements AsyncDisposable {
  /** The temp dir holding every file. */
  readonly dir: string;
  /** The CA certificate, PEM: what clients and the server trust. */
  readonly caCert: string;
  /** The CA certificate file (also a PEM trust store as ZooKeeper reads one). */
  readonly caCertFile: string;
  /** The server's certificate (signed by the CA, valid for `serverNames`). */
  readonly server: TlsIdentity;
  readonly #clients: ReadonlyMap<string, TlsIdentity>;
  #closed = false;

  private constructor(
    dir: string,
    caCertFile: string,
    server: TlsIdentity,
    clients: ReadonlyMap<string, TlsIdentity>,
  ) {
    this.dir = dir;
    this.caCertFile = caCertFile;
    this.caCert = readFileSync(caCertFile, 'utf8');
    this.server = server;
    this.#clients = clients;
  }

  /** Makes a fresh CA, server certificate and client certificates (needs `openssl` on PATH). */
  static async create(options: TlsMaterialOptions = {}): Promise<TlsMaterial> {
    const { clients = ['alice', 'bob'], days = 2 } = options;
    const serverNames = options.serverNames ?? ['IP:127.0.0.1', 'DNS:localhost'];
    const dir = mkdtempSync(join(tmpdir(), 'zkrecipes-tls-'));
    processReaper.trackDir(dir);
    try {
      const caKey = join(dir, 'ca.key');
      const caCertFile = join(dir, 'ca.pem');
      const caName = `zkrecipes test CA ${Math.random().toString(36).slice(2, 10)}`;
      await newKey(caKey);
      await openssl([
        ...['req', '-x509', '-new', '-key', caKey, '-days', String(days)],
        ...['-subj', `/O=zkrecipes/CN=${caName}`, '-out', caCertFile],
        ...['-addext', 'basicConstraints=critical,CA:TRUE'],
        ...['-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
      ]);
      const issue = (name: string, ou: string, extensions: string[]): Promise<TlsIdentity> =>
        issueCertificate({ dir, caKey, caCertFile, days, name, ou, extensions });
      const server = await issue('localhost', 'servers', [
        `subjectAltName=${serverNames.join(',')}`,
        'extendedKeyUsage=serverAuth,clientAuth',
      ]);
      const made = new Map<string, TlsIdentity>();
      for (const name of clients) {
        made.set(name, await issue(name, 'clients', ['extendedKeyUsage=clientAuth']));
      }
      return new TlsMaterial(dir, caCertFile, server, made);
    } catch (error) {
      removeDir(dir);
      throw error;
    }
  }

  /** The client identity made for `name`; throws when none was. */
  client(name: string): TlsIdentity {
    const identity = this.#clients.get(name);
    if (!identity) {
      throw new Error(
        `no client certificate for '${name}' (made: ${[...this.#clients.keys()].join(', ')})`,
      );
    }
    return identity;
  }

  /** Every client identity, in the order made. */
  get clients(): readonly TlsIdentity[] {
    return [...this.#clients.values()];
  }

  /** Deletes the temp dir. A second call does nothing. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      removeDir(this.dir);
    }
    return Promise.resolve();
  }

  /** Calls `close()`, so `await using` removes the files at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

async function openssl(args: readonly string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`openssl ${args[0]} failed: ${stderr.trim() || String(error)}`, {
      cause: error,
    });
  }
}

/** A P-256 EC key, unencrypted PKCS#8 (ZooKeeper's PEM key store reads it; RSA takes 20 times longer to make). */
function newKey(file: string): Promise<void> {
  return openssl([
    'genpkey',
    '-algorithm',
    'EC',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-out',
    file,
  ]);
}

interface IssueOptions {
  dir: string;
  caKey: string;
  caCertFile: string;
  days: number;
  name: string;
  ou: string;
  extensions: string[];
}

async function issueCertificate(options: IssueOptions): Promise<TlsIdentity> {
  const { dir, caKey, caCertFile, days, name, ou, extensions } = options;
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.pem`);
  await newKey(keyFile);
  await openssl([
    ...['req', '-x509', '-new', '-key', keyFile, '-CA', caCertFile, '-CAkey', caKey],
    ...['-days', String(days), '-subj', `/O=zkrecipes/OU=${ou}/CN=${name}`, '-out', certFile],
    ...['-addext', 'basicConstraints=critical,CA:FALSE'],
    ...['-addext', 'keyUsage=critical,digitalSignature,keyEncipherment'],
    ...extensions.flatMap((extension) => ['-addext', extension]),
  ]);
  const key = readFileSync(keyFile, 'utf8');
  const cert = readFileSync(certFile, 'utf8');
  const keyStoreFile = join(dir, `${name}.keystore.pem`);
  writeFileSync(keyStoreFile, `${key}${cert}`);
  return {
    name,
    cert,
    key,
    certFile,
    keyFile,
    keyStoreFile,
    subjectDn: `CN=${name},OU=${ou},O=zkrecipes`,
  };
}

function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
  processReaper.untrackDir(dir);
}

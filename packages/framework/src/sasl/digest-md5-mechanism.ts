/**
 * DIGEST-MD5 (RFC 2831), client side, authentication only (qop "auth"): what ZooKeeper's Java
 * client does when its JAAS `Client` section uses DigestLoginModule. Three steps on a
 * connection: an empty first token, the answer to the server's digest-challenge, and the check
 * of the server's `rspauth`, which proves the server knows the password too.
 */
import { Buffer } from 'node:buffer';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseDirectives, quoted } from './digest-md5-challenge.js';
import type { SaslMechanism } from './sasl-mechanism.js';

/** Options of {@link DigestMd5Mechanism}. */
export interface DigestMd5MechanismOptions {
  /** The user to authenticate as (the server's JAAS `user_<name>`). */
  readonly username: string;
  /** The user's password. */
  readonly password: string;
  /** The digest-uri's protocol. Default `'zookeeper'`. */
  readonly protocol?: string;
  /** The digest-uri's server name. Default `'zk-sasl-md5'` (ZooKeeper's fixed name). */
  readonly serverName?: string;
  /**
   * The authorization id (authzid). Default: the user name, as ZooKeeper's Java client sends;
   * `''` sends none.
   */
  readonly authorizationId?: string;
  /** The client nonce; a fresh random one per exchange by default. For tests only. */
  readonly cnonce?: () => string;
}

type Step = 'idle' | 'challenged' | 'answered' | 'done';

const md5 = (...parts: (string | Buffer)[]): Buffer => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const md5Hex = (text: string | Buffer): string => md5(text).toString('hex');

/**
 * RFC 2831 section 2.1.2.1: with charset=utf-8, a string all of whose characters are in
 * ISO 8859-1 is hashed in ISO 8859-1, any other in UTF-8; without it, in ISO 8859-1.
 */
function hashBytes(text: string, utf8: boolean): Buffer {
  return utf8 && [...text].some((c) => c.codePointAt(0)! > 0xff)
    ? Buffer.from(text, 'utf8')
    : Buffer.from(text, 'latin1');
}

export class DigestMd5Mechanism implements SaslMechanism {
  readonly name = 'DIGEST-MD5';
  readonly #options: DigestMd5MechanismOptions;
  #step: Step = 'idle';
  /** What the rspauth is checked against, computed with the response. */
  #expectedRspauth: string | undefined;

  constructor(options: DigestMd5MechanismOptions) {
    this.#options = options;
  }

  get complete(): boolean {
    return this.#step === 'done';
  }

  /** The user name, for logs and errors. */
  get username(): string {
    return this.#options.username;
  }

  /** DIGEST-MD5 has no initial response: the server speaks first, to an empty token. */
  start(): Buffer {
    this.#step = 'challenged';
    this.#expectedRspauth = undefined;
    return Buffer.alloc(0);
  }

  evaluate(challenge: Buffer): Buffer | undefined {
    switch (this.#step) {
      case 'challenged':
        this.#step = 'answered';
        return this.#respond(challenge);
      case 'answered':
        this.#verify(challenge);
        this.#step = 'done';
        return undefined;
      default:
        throw new Error(`DIGEST-MD5: unexpected server token (${this.#step})`);
    }
  }

  #respond(challengeBytes: Buffer): Buffer {
    if (challengeBytes.length === 0) {
      throw new Error(
        'DIGEST-MD5: the server sent an empty challenge (is SASL configured on the server: a JAAS Server section?)',
      );
    }
    let directives = parseDirectives(challengeBytes.toString('latin1'));
    const utf8 = directives.get('charset')?.[0]?.toLowerCase() === 'utf-8';
    if (utf8) directives = parseDirectives(challengeBytes.toString('utf8'));
    const one = (name: string): string | undefined => directives.get(name)?.[0];
    const nonce = one('nonce');
    if (nonce === undefined || nonce === '')
      throw new Error('DIGEST-MD5: the challenge has no nonce');
    if (one('algorithm')?.toLowerCase() !== 'md5-sess') {
      throw new Error(
        `DIGEST-MD5: the challenge's algorithm is not md5-sess: ${String(one('algorithm'))}`,
      );
    }
    const qops = (one('qop') ?? 'auth').split(',').map((q) => q.trim().toLowerCase());
    if (!qops.includes('auth')) {
      throw new Error(
        `DIGEST-MD5: the server does not offer qop "auth" (offers ${qops.join(', ')})`,
      );
    }
    const realm = one('realm');
    const { username, password } = this.#options;
    const digestUri = `${this.#options.protocol ?? 'zookeeper'}/${this.#options.serverName ?? 'zk-sasl-md5'}`;
    const cnonce = this.#options.cnonce?.() ?? randomBytes(24).toString('base64');
    // ZooKeeper's Java client names the user as its authorization id too (authzid).
    const authzid = this.#options.authorizationId ?? username;
    const nc = '00000001';
    const qop = 'auth';
    const secret = md5(
      hashBytes(username, utf8),
      ':',
      hashBytes(realm ?? '', utf8),
      ':',
      hashBytes(password, utf8),
    );
    const a1 = [secret, Buffer.from(`:${nonce}:${cnonce}`)];
    if (authzid !== '') a1.push(Buffer.from(':'), hashBytes(authzid, utf8));
    const ha1 = md5Hex(Buffer.concat(a1));
    const kd = (a2: string): string =>
      md5Hex(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${md5Hex(a2)}`);
    this.#expectedRspauth = kd(`:${digestUri}`);
    const fields = [
      `charset=utf-8`,
      `username=${quoted(username)}`,
      ...(realm === undefined ? [] : [`realm=${quoted(realm)}`]),
      `nonce=${quoted(nonce)}`,
      `nc=${nc}`,
      `cnonce=${quoted(cnonce)}`,
      `digest-uri=${quoted(digestUri)}`,
      `maxbuf=65536`,
      `response=${kd(`AUTHENTICATE:${digestUri}`)}`,
      `qop=${qop}`,
      ...(authzid === '' ? [] : [`authzid=${quoted(authzid)}`]),
    ];
    if (!utf8) fields.shift();
    return Buffer.from(fields.join(','), utf8 ? 'utf8' : 'latin1');
  }

  #verify(token: Buffer): void {
    const rspauth = parseDirectives(token.toString('latin1')).get('rspauth')?.[0];
    const expected = this.#expectedRspauth;
    if (rspauth === undefined || expected === undefined) {
      throw new Error('DIGEST-MD5: the server did not send rspauth');
    }
    const ok =
      rspauth.length === expected.length &&
      timingSafeEqual(Buffer.from(rspauth.toLowerCase()), Buffer.from(expected));
    if (!ok)
      throw new Error("DIGEST-MD5: the server's rspauth is wrong (it does not know the password)");
  }
}

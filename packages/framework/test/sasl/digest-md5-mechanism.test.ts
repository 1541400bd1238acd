import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DigestMd5Mechanism } from '../../src/sasl/digest-md5-mechanism.js';
import { parseDirectives, quoted } from '../../src/sasl/digest-md5-challenge.js';
import { saslMechanismOf } from '../../src/sasl/sasl-options.js';
import { InvalidArgumentError } from '../../src/errors/zookeeper-error-classes.js';

// RFC 2831 section 4's example exchange (IMAP), with the md5-sess algorithm as the RFC requires.
const RFC_CHALLENGE =
  'realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8';

function rfcMechanism(): DigestMd5Mechanism {
  return new DigestMd5Mechanism({
    username: 'chris',
    password: 'secret',
    protocol: 'imap',
    serverName: 'elwood.innosoft.com',
    authorizationId: '',
    cnonce: () => 'OA6MHXh6VqTrRk',
  });
}

describe('DigestMd5Mechanism', () => {
  it("answers RFC 2831's example challenge with the RFC's response and accepts its rspauth", () => {
    const mechanism = rfcMechanism();
    assert.deepEqual(mechanism.start(), Buffer.alloc(0));
    const response = parseDirectives(mechanism.evaluate(Buffer.from(RFC_CHALLENGE))!.toString());
    assert.deepEqual(response.get('response'), ['d388dad90d4bbd760a152321f2143af7']);
    assert.deepEqual(response.get('digest-uri'), ['imap/elwood.innosoft.com']);
    assert.deepEqual(response.get('nc'), ['00000001']);
    assert.deepEqual(response.get('qop'), ['auth']);
    assert.equal(response.has('authzid'), false);
    assert.equal(mechanism.complete, false);
    assert.equal(
      mechanism.evaluate(Buffer.from('rspauth=ea40f60335c427b5527b84dbabcdfffd')),
      undefined,
    );
    assert.equal(mechanism.complete, true);
  });

  it('a wrong rspauth (a server that does not know the password) fails the exchange', () => {
    const mechanism = rfcMechanism();
    mechanism.start();
    mechanism.evaluate(Buffer.from(RFC_CHALLENGE));
    assert.throws(
      () => mechanism.evaluate(Buffer.from('rspauth=00000000000000000000000000000000')),
      /rspauth is wrong/,
    );
    assert.equal(mechanism.complete, false);
  });

  it("sends ZooKeeper's digest-uri and the user as authzid by default", () => {
    const mechanism = new DigestMd5Mechanism({ username: 'bob', password: 'pw' });
    mechanism.start();
    const challenge = 'realm="zk-sasl-md5",nonce="abc",charset=utf-8,algorithm=md5-sess';
    const response = parseDirectives(mechanism.evaluate(Buffer.from(challenge))!.toString());
    assert.deepEqual(response.get('digest-uri'), ['zookeeper/zk-sasl-md5']);
    assert.deepEqual(response.get('realm'), ['zk-sasl-md5']);
    assert.deepEqual(response.get('authzid'), ['bob']);
    assert.deepEqual(response.get('charset'), ['utf-8']);
  });

  it('start() begins a new exchange: the mechanism serves one connection after another', () => {
    const mechanism = rfcMechanism();
    for (let i = 0; i < 2; i++) {
      mechanism.start();
      assert.equal(mechanism.complete, false);
      mechanism.evaluate(Buffer.from(RFC_CHALLENGE));
      mechanism.evaluate(Buffer.from('rspauth=ea40f60335c427b5527b84dbabcdfffd'));
      assert.equal(mechanism.complete, true);
    }
  });

  it('refuses an empty challenge (a server without SASL), a missing nonce and another algorithm', () => {
    const empty = rfcMechanism();
    empty.start();
    assert.throws(() => empty.evaluate(Buffer.alloc(0)), /empty challenge/);
    const noNonce = rfcMechanism();
    noNonce.start();
    assert.throws(() => noNonce.evaluate(Buffer.from('realm="r",algorithm=md5-sess')), /no nonce/);
    const md5 = rfcMechanism();
    md5.start();
    assert.throws(() => md5.evaluate(Buffer.from('nonce="n",algorithm=md5')), /md5-sess/);
    const authInt = rfcMechanism();
    authInt.start();
    assert.throws(
      () => authInt.evaluate(Buffer.from('nonce="n",qop="auth-conf",algorithm=md5-sess')),
      /qop "auth"/,
    );
  });
});

describe('DIGEST-MD5 directives', () => {
  it('parses quoted values with escapes, bare values and repeated names', () => {
    const parsed = parseDirectives(' realm="a\\"b", realm="c,d" ,nonce=xyz,  maxbuf=1024 ');
    assert.deepEqual(parsed.get('realm'), ['a"b', 'c,d']);
    assert.deepEqual(parsed.get('nonce'), ['xyz']);
    assert.deepEqual(parsed.get('maxbuf'), ['1024']);
    assert.equal(quoted('a"b\\c'), '"a\\"b\\\\c"');
    assert.throws(() => parseDirectives('realm="open'), /unterminated/);
  });
});

describe('the sasl option', () => {
  it('names DIGEST-MD5 or takes a mechanism object; anything else is an InvalidArgumentError', () => {
    assert.ok(
      saslMechanismOf({ mechanism: 'DIGEST-MD5', username: 'u', password: 'p' }) instanceof
        DigestMd5Mechanism,
    );
    const own = {
      name: 'X',
      complete: false,
      start: () => Buffer.alloc(0),
      evaluate: () => undefined,
    };
    assert.equal(saslMechanismOf(own), own);
    const bad: unknown[] = [
      { mechanism: 'GSSAPI', username: 'u', password: 'p' },
      { mechanism: 'DIGEST-MD5', username: '', password: 'p' },
      { name: 'X' },
    ];
    for (const option of bad) {
      assert.throws(() => saslMechanismOf(option as never), InvalidArgumentError);
    }
  });
});

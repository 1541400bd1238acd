import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { TestingServer } from '../src/testing-server.js';
import { TlsMaterial } from '../src/tls-material.js';

describe('TlsMaterial and TestingServer with tls', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ tls: true });
  });
  after(async () => {
    await server.close();
  });

  it("subjectDn is the certificate's subject in RFC 2253 form, as ZooKeeper's x509 provider names it", () => {
    const alice = server.tls!.client('alice');
    const printed = execFileSync(
      'openssl',
      ['x509', '-noout', '-subject', '-nameopt', 'RFC2253', '-in', alice.certFile],
      { encoding: 'utf8' },
    );
    assert.equal(printed.trim(), `subject=${alice.subjectDn}`);
  });

  it('the secure port completes a TLS handshake trusted by the CA, valid for 127.0.0.1; the plaintext port still answers four-letter words', async () => {
    const material = server.tls!;
    const alice = material.client('alice');
    const authorized = await new Promise<boolean>((resolve, reject) => {
      const socket = connect({
        host: server.host,
        port: server.securePort!,
        ca: material.caCert,
        cert: alice.cert,
        key: alice.key,
      });
      socket.once('secureConnect', () => {
        resolve(socket.authorized);
        socket.destroy();
      });
      socket.once('error', reject);
    });
    assert.equal(authorized, true);
    assert.match(await server.fourLetter('srvr'), /Mode: standalone/);
  });

  it("close() removes the material the server made; material given by the caller is the caller's", async () => {
    const own = await TlsMaterial.create({ clients: ['carol'] });
    assert.throws(() => own.client('alice'), /no client certificate for 'alice'/);
    await own.close();
    assert.equal(existsSync(own.dir), false);
  });
});

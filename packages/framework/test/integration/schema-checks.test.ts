import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { after, before, describe, it } from 'node:test';
import { FaultProxy, TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { SchemaViolationError } from '../../src/errors/schema-violation-error.js';
import { isInvalidArgument } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { SchemaSet } from '../../src/schema/schema-set.js';

const base = uniquePath('schema');
const isJson = ({ data }: { data: Buffer | undefined }): boolean => {
  try {
    JSON.parse(data?.toString() ?? '');
    return true;
  } catch {
    return false;
  }
};

async function violation(call: Promise<unknown>, rule: string): Promise<SchemaViolationError> {
  const error = await call.then(
    () => assert.fail(`expected a ${rule} violation`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SchemaViolationError, String(error));
  assert.equal(error.rule, rule);
  return error;
}

describe('schemaSet: every call checked before anything is sent (real server)', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: FrameworkClient;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    client = createFramework({
      connectString: proxy.connectString,
      logger: silentLogger,
      schemaSet: new SchemaSet([
        {
          name: 'config',
          path: `${base}/config`,
          ephemeral: 'CANNOT',
          canBeDeleted: false,
          dataValidator: isJson,
        },
        { name: 'locks', pathPattern: new RegExp(`${base}/locks/.*`), ephemeral: 'MUST' },
        { name: 'watched', pathPattern: new RegExp(`${base}/watched/.*`), watched: 'MUST' },
      ]),
    });
    await Promise.all([
      observer.start({ timeoutMs: timing.ms(10_000) }),
      client.start({ timeoutMs: timing.ms(10_000) }),
    ]);
    await observer.create(`${base}/locks`, { createParents: true });
    await observer.create(`${base}/watched/w`, { createParents: true });
  });
  after(async () => {
    await client.close();
    await observer.close();
    await proxy.close();
    await server.close();
  });

  it('a violation rejects at once with nothing sent: with the link blackholed, and no node made', async () => {
    const config = `${base}/config`;
    proxy.blackhole();
    try {
      const startedAt = performance.now();
      const error = await violation(
        client.create(config, { mode: 'EPHEMERAL', data: Buffer.from('{}') }),
        'ephemeral',
      );
      assert.equal(error.violation, 'Cannot be ephemeral');
      assert.equal(error.schemaName, 'config');
      assert.equal(error.path, config);
      assert.equal(error.code, 'SCHEMA_VIOLATION');
      assert.equal(error.retryable, false);
      await violation(client.create(config, { data: Buffer.from('not json') }), 'data');
      await violation(client.create(`${base}/locks/l`), 'ephemeral');
      await violation(client.getData(`${base}/watched/w`), 'watched');
      assert.ok(performance.now() - startedAt < timing.ms(1_000), 'answered without the server');
    } finally {
      proxy.heal();
    }
    assert.equal(await observer.exists(config), null, 'the node was not created');
    assert.equal(await observer.exists(`${base}/locks/l`), null);
  });

  it('allowed calls go through; setData, delete and reads break their rules', async () => {
    const config = `${base}/config`;
    await client.create(config, { data: Buffer.from('{"a":1}') });
    await client.setData(config, Buffer.from('{"a":2}'));
    await violation(client.setData(config, Buffer.from('{')), 'data');
    assert.equal((await observer.getData(config)).data.toString(), '{"a":2}');
    await violation(client.delete(config), 'canBeDeleted');
    assert.notEqual(await observer.exists(config), null);
    const lock = await client.create(`${base}/locks/l-`, { mode: 'EPHEMERAL_SEQUENTIAL' });
    assert.match(lock, /\/locks\/l-\d{10}$/);
    await violation(client.exists(`${base}/watched/w`), 'watched');
    await violation(client.getChildren(`${base}/watched/w`), 'watched');
    const { data } = await client.getData(`${base}/watched/w`, { watch: () => {} });
    assert.equal(data.length, 0);
  });

  it('a transaction with one op breaking its schema sends nothing: no op applied', async () => {
    const free = `${base}/free-${Date.now()}`;
    await violation(
      client.transaction([op.create(free), op.create(`${base}/locks/t`, { mode: 'PERSISTENT' })]),
      'ephemeral',
    );
    assert.equal(await observer.exists(free), null);
    await violation(client.transaction([op.delete(`${base}/config`)]), 'canBeDeleted');
    await violation(client.transaction([op.setData(`${base}/config`, Buffer.from('x'))]), 'data');
    const results = await client.transaction([op.create(free), op.check(`${base}/config`)]);
    assert.equal(results.length, 2);
  });

  it('paths are matched as the call gives them: in a namespace view, namespace-relative', async () => {
    const view = client.usingNamespace(base.slice(1));
    // Server path ${base}/locks/x, given path /locks/x: the 'locks' schema does not apply.
    await view.create('/locks/x', { mode: 'PERSISTENT' });
    assert.notEqual(await observer.exists(`${base}/locks/x`), null);
    // The given path matches it, wherever the namespace puts the node.
    await violation(view.create(`${base}/locks/y`, { createParents: true }), 'ephemeral');
    assert.equal(await observer.exists(`${base}${base}`), null);
  });

  it('without a default schema, a path no schema matches is refused; the default set checks nothing', async () => {
    const strict = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      schemaSet: new SchemaSet([{ path: '/allowed' }], { useDefaultSchema: false }),
    });
    const open = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      schemaSet: SchemaSet.getDefaultSchemaSet(),
    });
    try {
      await Promise.all([strict.start(), open.start()]);
      const path = uniquePath('unknown');
      const error = await violation(strict.create(path), 'schema');
      assert.equal(error.schemaName, undefined);
      assert.equal(await observer.exists(path), null);
      await open.create(path, { mode: 'EPHEMERAL' });
      assert.throws(
        () =>
          createFramework({
            connectString: server.connectString,
            schemaSet: [{ path: '/a' }] as unknown as SchemaSet,
          }),
        (e) => isInvalidArgument(e),
      );
    } finally {
      await Promise.all([strict.close(), open.close()]);
    }
  });
});

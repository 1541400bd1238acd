// Bad input as an untyped JavaScript caller gives it: each case gets a typed error, and the
// ones that reach a live client send nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mntr, TestingServer, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../src/client/framework-client.js';
import { op } from '../src/client/transaction-op.js';
import { OPEN_ACL_UNSAFE } from '../src/zk/zookeeper-types.js';
import { createFramework } from '../src/create-framework.js';
import { errorFromCode } from '../src/errors/error-from-code.js';
import { isIllegalState, isZooKeeperError } from '../src/errors/predicates.js';
import { InvalidArgumentError } from '../src/errors/zookeeper-error-classes.js';
import { parseConnectString } from '../src/paths/connect-string.js';
import { validatePath } from '../src/paths/validate-path.js';
import { ExponentialBackoffRetry } from '../src/retry/exponential-backoff-retry.js';
import { RetryForever } from '../src/retry/retry-forever.js';
import { RetryNTimes } from '../src/retry/retry-n-times.js';
import { RetryOneTime } from '../src/retry/retry-one-time.js';
import { RetryUntilElapsed } from '../src/retry/retry-until-elapsed.js';
import { SessionFailedRetryPolicy } from '../src/retry/session-failed-retry-policy.js';
import { BoundedExponentialBackoffRetry } from '../src/retry/bounded-exponential-backoff-retry.js';
import { ConnectionState } from '../src/state/connection-state.js';
import { quickClient } from './integration/fixtures/quick-client.js';

const invalid = (error: unknown): boolean => error instanceof InvalidArgumentError;

describe('createFramework checks every option at construction', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['retryPolicy: {}', { retryPolicy: {} }, /retryPolicy must be a RetryPolicy/],
    ['aclProvider: {}', { aclProvider: {} }, /aclProvider must have defaultAcl/],
    ['logger: {}', { logger: {} }, /logger must have error, warn, info, debug/],
    ['authInfo: 5', { authInfo: 5 }, /authInfo must be an array/],
    ['authInfo: [5]', { authInfo: [5] }, /non-empty scheme/],
    ['detectEventLoopStalls: "no"', { detectEventLoopStalls: 'no' }, /true or false/],
    ['closeOnExit: 1', { closeOnExit: 1 }, /true or false/],
    ['watchBudgetBytes: 3_000_000', { watchBudgetBytes: 3_000_000 }, /from 1 to 1047551/],
    ['maxRequestBytes: 10', { maxRequestBytes: 10 }, /maxRequestBytes/],
    ["connectString 'h:1/app/'", { connectString: 'h:1/app/' }, /chroot '\/app\/'.*end with/],
    ["connectString 'h:1/../x'", { connectString: 'h:1/../x' }, /chroot '\/\.\.\/x'/],
    ["connectString 'h:1//'", { connectString: 'h:1//' }, /chroot '\/\/'/],
    ["connectString 'h:99999'", { connectString: 'h:99999' }, /not host\[:port\]/],
    ["connectString 'a b:1'", { connectString: 'a b:1' }, /not host\[:port\]/],
    [
      'an unknown option',
      { sessionTimeout: 5000 },
      /unknown option 'sessionTimeout' \(did you mean 'sessionTimeoutMs'\?\)/,
    ],
    [
      'a misspelt connectString',
      { conectString: '127.0.0.1:2181' },
      /unknown option 'conectString' \(did you mean 'connectString'\?\)/,
    ],
    ['a far-off unknown option', { frobnicate: true }, /unknown option 'frobnicate'$/],
  ];
  for (const [name, options, message] of cases) {
    it(`rejects ${name} with InvalidArgumentError`, () => {
      assert.throws(
        () => createFramework({ connectString: '127.0.0.1:2181', ...options }),
        (error) => invalid(error) && message.test(String(error)),
      );
    });
  }

  it('accepts what ZooKeeper accepts: IPv6, names with "_", no port (2181), "/" as no chroot, console as logger', () => {
    assert.deepEqual(parseConnectString('[::1]:2182,zk_1.example:2183,zk3/app'), {
      servers: [
        { host: '::1', port: 2182 },
        { host: 'zk_1.example', port: 2183 },
        { host: 'zk3', port: 2181 },
      ],
      chroot: '/app',
    });
    assert.equal(parseConnectString('h:1/').chroot, undefined);
    const client = createFramework({ connectString: 'localhost', logger: console });
    assert.equal(client.state, 'LATENT');
  });

  it('takes an unknown option set to undefined as absent, as recipe constructors do', () => {
    const options = { connectString: 'localhost', sessionTimeout: undefined };
    assert.equal(createFramework(options).state, 'LATENT');
  });

  it('retry-policy constructors without options, and errorFromCode with a non-number, give typed errors', () => {
    const constructors: (() => unknown)[] = [
      () => new (ExponentialBackoffRetry as unknown as new () => unknown)(),
      () => new (BoundedExponentialBackoffRetry as unknown as new () => unknown)(),
      () => new (RetryNTimes as unknown as new () => unknown)(),
      () => new (RetryOneTime as unknown as new () => unknown)(),
      () => new (RetryUntilElapsed as unknown as new () => unknown)(),
      () => new (RetryForever as unknown as new () => unknown)(),
      () => new (SessionFailedRetryPolicy as unknown as new () => unknown)(),
    ];
    for (const construct of constructors) assert.throws(construct, invalid);
    const error = errorFromCode(Symbol('x') as unknown as number);
    assert.ok(isZooKeeperError(error));
    assert.equal(error.code, 'UNKNOWN');
  });

  it('names a rejected character by its code point and escapes control characters in the message', () => {
    assert.throws(() => validatePath('/a\u{1F600}'), /character U\+1F600 at index 2/);
    assert.throws(
      () => validatePath('/a\u007f'),
      (error) => {
        const message = (error as Error).message;
        return message.includes('"/a\\u007f"') && !message.includes('\u007f');
      },
    );
    assert.throws(
      () => validatePath('/a\u0085'),
      (error) => {
        const message = (error as Error).message;
        return message.includes('"/a\\u0085"') && !message.includes('\u0085');
      },
    );
  });
});

describe('oversize requests are refused before anything is sent (real server)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  const packets = async (): Promise<number> =>
    (await mntr(server.host, server.port)).get('packets_received') ?? Number.NaN;

  before(async () => {
    server = await TestingServer.start();
    // A long session: the liveness probe (after a third of it in silence) must not land among
    // the packets counted below, however slowly a loaded machine builds the oversize requests.
    client = await quickClient(server.connectString, { sessionTimeoutMs: 40_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('a transaction, a create with a huge ACL, setAcl and setData over jute.maxbuffer: InvalidArgumentError, no packet, no SUSPENDED', async () => {
    const root = uniquePath('oversize');
    await client.create(root);
    const states: ConnectionState[] = [];
    const unsubscribe = client.on('stateChanged', (state) => states.push(state));
    const big = Buffer.alloc(600_000, 1);
    const manyAcl = Array.from({ length: 40_000 }, (_, i) => ({
      perms: 31,
      id: { scheme: 'digest', id: `user${i}:abcdefghijklmnopqrstuvwxyz0=` },
    }));
    const attempts: [string, () => Promise<unknown>][] = [
      [
        '3 creates x 600 KB',
        () => client.transaction([0, 1, 2].map((i) => op.create(`${root}/n${i}`, { data: big }))),
      ],
      [
        '60,000 check ops',
        () => client.transaction(Array.from({ length: 60_000 }, () => op.check(root))),
      ],
      ['create with 40,000 ACL entries', () => client.create(`${root}/acl`, { acl: manyAcl })],
      ['setAcl with 40,000 ACL entries', () => client.setAcl(root, manyAcl)],
      [
        'create with 1 MB of data and 200 ACL entries',
        () =>
          client.create(`${root}/data`, {
            data: Buffer.alloc(1_043_455),
            acl: manyAcl.slice(0, 200),
          }),
      ],
    ];
    const first = await packets();
    const before = await packets();
    const baseline = before - first;
    for (const [name, attempt] of attempts) {
      await assert.rejects(attempt(), (error) => {
        assert.ok(invalid(error), `${name}: ${String(error)}`);
        assert.match((error as Error).message, /over the server's limit of 1048575/);
        return true;
      });
    }
    // The four-letter word is itself counted once per call: that is the baseline.
    const sent = (await packets()) - before - baseline;
    assert.equal(sent, 0, `${sent} packets reached the server`);
    assert.deepEqual(states, []);
    assert.equal(client.connectionState, ConnectionState.CONNECTED);
    unsubscribe();
  });

  it('an array or a primitive as the options of any operation: InvalidArgumentError, no packet', async () => {
    const root = uniquePath('options-array');
    await client.create(root);
    const notOptions = [[], [{ version: 0 }], 'x', 42, true] as unknown as object[];
    const calls: [string, (options: never) => Promise<unknown>][] = [
      ['create', (options) => client.create(`${root}/n`, options)],
      ['delete', (options) => client.delete(root, options)],
      ['exists', (options) => client.exists(root, options)],
      ['getData', (options) => client.getData(root, options)],
      ['setData', (options) => client.setData(root, Buffer.from('x'), options)],
      ['getChildren', (options) => client.getChildren(root, options)],
      ['getAcl', (options) => client.getAcl(root, options)],
      ['setAcl', (options) => client.setAcl(root, OPEN_ACL_UNSAFE, options)],
      ['sync', (options) => client.sync(root, options)],
      ['transaction', (options) => client.transaction([op.check(root)], options)],
      ['addWatch', (options) => client.addWatch(root, () => undefined, options)],
      ['blockUntilConnected', (options) => client.blockUntilConnected(options)],
    ];
    const first = await packets();
    const before = await packets();
    const baseline = before - first;
    for (const [name, call] of calls) {
      for (const options of notOptions) {
        await assert.rejects(call(options as never), (error) => {
          assert.ok(invalid(error), `${name}(${JSON.stringify(options)}): ${String(error)}`);
          assert.match((error as Error).message, /options must be an object; got/);
          return true;
        });
      }
    }
    const sent = (await packets()) - before - baseline;
    assert.equal(sent, 0, `${sent} packets reached the server`);
    assert.deepEqual(await client.getChildren(root), []);
  });

  it('lifecycle misuse is IllegalStateError; after close() the connection state is undefined, not CONNECTED', async () => {
    const other = await quickClient(server.connectString);
    assert.equal(other.connectionState, ConnectionState.CONNECTED);
    await assert.rejects(other.start(), (error) => isIllegalState(error));
    await assert.rejects(other.usingNamespace('v').start(), (error) => isIllegalState(error));
    await other.close();
    assert.equal(other.connectionState, undefined);
    await assert.rejects(other.start(), (error) => isIllegalState(error));
    const latent = createFramework({ connectString: server.connectString });
    await assert.rejects(latent.exists('/'), (error) => isIllegalState(error));
  });

  it("create('/q/', sequential) names the node by its parent alone, also through a namespace view", async () => {
    const root = uniquePath('trailing');
    await client.create(root);
    const created = await client.create(`${root}/`, { mode: 'PERSISTENT_SEQUENTIAL' });
    assert.match(created, new RegExp(`^${root}/\\d{10}$`));
    const view = client.usingNamespace(root.slice(1));
    const inView = await view.create('/', { mode: 'PERSISTENT_SEQUENTIAL' });
    assert.match(inView, /^\/\d{10}$/);
    assert.deepEqual((await client.getChildren(root)).length, 2);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer } from '@zkrecipes/testing';
import { loaded, runRecordingResolutions } from '../fixtures/module-resolutions.js';

const child = new URL('./fixtures/telemetry-child.js', import.meta.url);

describe('@opentelemetry/api is an optional peer', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('not installed: a client without providers and a recipe recording through it work, and record nothing', async () => {
    const run = await runRecordingResolutions(child, {
      env: { ZKRECIPES_TEST_CONNECT: server.connectString },
      deny: ['@opentelemetry/api'],
    });
    assert.equal(run.stderr, '');
    assert.deepEqual(JSON.parse(run.stdout), { metrics: false, tracing: false });
    assert.equal(loaded(run, '@opentelemetry/api'), false);
  });

  it('installed: read for the global providers only when the client starts, not when the framework is imported', async () => {
    const run = await runRecordingResolutions(child, {
      env: { ZKRECIPES_TEST_CONNECT: server.connectString },
    });
    assert.deepEqual(JSON.parse(run.stdout), { metrics: false, tracing: false }, 'no SDK');
    const order = run.resolved.map(({ specifier }) => specifier);
    assert.ok(order.includes('@opentelemetry/api'));
    assert.ok(order.includes('imported'));
    assert.ok(
      order.indexOf('@opentelemetry/api') > order.indexOf('imported'),
      'not among what the framework imports statically',
    );
  });
});

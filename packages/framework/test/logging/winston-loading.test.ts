import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer } from '@zkrecipes/testing';
import { loaded, runRecordingResolutions } from '../fixtures/module-resolutions.js';

const child = new URL('./fixtures/logging-child.js', import.meta.url);
const TIME = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

describe('winston is loaded only by the default logger, with its first line', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  const runChild = (mode: string, level: string) =>
    runRecordingResolutions(child, {
      args: [mode],
      env: { ZKRECIPES_TEST_CONNECT: server.connectString, ZKRECIPES_LOG_LEVEL: level },
    });

  it('a client with its own logger never loads winston, whatever the level', async () => {
    const run = await runChild('own', 'debug');
    assert.match(run.stdout, /^logged [1-9]\d*$/m, 'the own logger got the lines');
    assert.ok(loaded(run, 'rxjs'), 'the recorder sees what is imported');
    assert.ok(loaded(run, 'node-zookeeper-client'), 'and what is required');
    assert.equal(loaded(run, 'winston'), false);
    assert.equal(run.stderr, '');
  });

  it('the quiet default logger of a healthy client loads nothing: it has nothing to write', async () => {
    const run = await runChild('quiet', '');
    assert.equal(loaded(run, 'winston'), false);
    assert.equal(run.stderr, '');
  });

  it('the default logger loads winston with its first line; lines logged while it loads come out in order, and close() lets every line out before the process exits', async () => {
    const run = await runChild('default', 'debug');
    assert.ok(loaded(run, 'winston'));
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    assert.deepEqual(
      lines.slice(0, 3).map((line) => line.replace(new RegExp(`^${TIME} `), '')),
      ['warn [child] early 0', 'warn [child] early 1', 'warn [child] early 2'],
    );
    assert.ok(
      lines.some((line) => / info connection state CONNECTED\b/.test(line)),
      run.stderr,
    );
    // Each line carries the time of its call, not of its writing.
    const times = lines.map((line) => line.slice(0, 24));
    assert.deepEqual([...times].sort(), times);
  });
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createDefaultLogger } from '../../src/logging/create-default-logger.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

const run = promisify(execFile);
const moduleUrl = new URL('../../src/logging/create-default-logger.js', import.meta.url).href;

// The default logger writes to the process's real stderr, so each case runs in a child process
// with its own environment and both streams captured.
async function logInChild(
  level: string | undefined,
  script: string,
): Promise<{ stdout: string; stderrLines: string[] }> {
  const env = { ...process.env };
  delete env['ZKRECIPES_LOG_LEVEL'];
  if (level !== undefined) env['ZKRECIPES_LOG_LEVEL'] = level;
  const source = `import { createDefaultLogger, defaultLoggersFlushed } from ${JSON.stringify(moduleUrl)};\n${script}`;
  const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', source], {
    env,
  });
  return { stdout, stderrLines: stderr.split('\n').filter((line) => line !== '') };
}

const LOG_EVERY_LEVEL = `
const log = createDefaultLogger();
log.error('e'); log.warn('w'); log.info('i'); log.debug('d');
`;
const TIME = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

void describe('createDefaultLogger', () => {
  void it('is quiet by default: warn and error only, all on stderr, nothing on stdout', async () => {
    const { stdout, stderrLines } = await logInChild(undefined, LOG_EVERY_LEVEL);
    assert.equal(stdout, '');
    assert.equal(stderrLines.length, 2);
    assert.match(stderrLines[0] ?? '', new RegExp(`^${TIME} error e$`));
    assert.match(stderrLines[1] ?? '', new RegExp(`^${TIME} warn w$`));
  });

  void it('takes its level from ZKRECIPES_LOG_LEVEL, case-insensitively', async () => {
    const { stdout, stderrLines } = await logInChild(' Debug ', LOG_EVERY_LEVEL);
    assert.equal(stdout, '');
    assert.deepEqual(
      stderrLines.map((line) => line.replace(new RegExp(`^${TIME} `), '')),
      ['error e', 'warn w', 'info i', 'debug d'],
    );
  });

  void it('ZKRECIPES_LOG_LEVEL=silent prints nothing at all', async () => {
    const { stdout, stderrLines } = await logInChild('silent', LOG_EVERY_LEVEL);
    assert.equal(stdout, '');
    assert.deepEqual(stderrLines, []);
  });

  void it('an invalid level falls back to warn with one warning per process', async () => {
    const { stderrLines } = await logInChild(
      'loud',
      `${LOG_EVERY_LEVEL}\ncreateDefaultLogger().info('second logger, still quiet');`,
    );
    assert.equal(stderrLines.length, 3);
    assert.match(stderrLines[0] ?? '', /warn Ignoring invalid ZKRECIPES_LOG_LEVEL; using "warn"/);
    assert.match(stderrLines[0] ?? '', /"value":"loud"/);
    assert.match(stderrLines[1] ?? '', / error e$/);
    assert.match(stderrLines[2] ?? '', / warn w$/);
  });

  void it('formats one compact line: time level [component path] message meta', async () => {
    const { stderrLines } = await logInChild(
      undefined,
      `
const log = createDefaultLogger().child({ component: 'LeaderLatch', path: '/app/leader' });
log.warn('lost leadership', { id: 'worker-3', attempt: 2 });
log.error('failed', { error: Object.assign(new Error('gone'), { code: 'NO_NODE' }), data: Buffer.from('abc') });
createDefaultLogger().child({ component: 'closeOnExit' }).warn('no path');
`,
    );
    assert.deepEqual(
      stderrLines.map((line) => line.replace(new RegExp(`^${TIME} `), '')),
      [
        'warn [LeaderLatch /app/leader] lost leadership {"id":"worker-3","attempt":2}',
        'error [LeaderLatch /app/leader] failed {"error":{"name":"Error","message":"gone","code":"NO_NODE"},"data":"<3 bytes>"}',
        'warn [closeOnExit] no path',
      ],
    );
  });

  void it('writes the lines logged while winston loads in call order, all out once defaultLoggersFlushed() resolves', async () => {
    const { stderrLines } = await logInChild(
      undefined,
      `
const first = createDefaultLogger();
const second = createDefaultLogger().child({ component: 'second' });
first.warn('one'); second.warn('two'); first.error('three');
await defaultLoggersFlushed();
process.exit(0);
`,
    );
    assert.deepEqual(
      stderrLines.map((line) => line.replace(new RegExp(`^${TIME} `), '')),
      ['warn one', 'warn [second] two', 'error three'],
    );
  });

  void it('returns a Logger whose children are Loggers', () => {
    const child = createDefaultLogger().child({ component: 'test' });
    for (const method of ['error', 'warn', 'info', 'debug', 'child'] as const) {
      assert.equal(typeof child[method], 'function');
    }
  });
});

void describe('silentLogger', () => {
  void it('accepts every call and its children are itself', () => {
    silentLogger.error('e', { a: 1 });
    silentLogger.warn('w');
    silentLogger.info('i');
    silentLogger.debug('d');
    assert.equal(silentLogger.child({ component: 'x' }), silentLogger);
  });
});

import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import winston from 'winston';
import type { Logger } from '../../src/logging/logger.js';

function collectingWinston(lines: string[]): winston.Logger {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8').trimEnd());
      callback();
    },
  });
  return winston.createLogger({
    level: 'debug',
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream })],
  });
}

void describe('Logger', () => {
  void it('is satisfied structurally by a real winston logger, children included', async () => {
    const lines: string[] = [];
    // The assignment is the compile-time half of the test: no adapter, no cast.
    const logger: Logger = collectingWinston(lines);
    const child: Logger = logger.child({ component: 'LeaderLatch', path: '/app/leader' });

    child.info('became leader', { id: 'worker-3' });
    logger.debug('plain');
    child.warn('no meta');
    child.error('with error meta', { code: 'CONNECTION_LOSS' });

    // winston hands entries to its transports asynchronously.
    await new Promise((resolve) => setImmediate(resolve));
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(entries, [
      {
        level: 'info',
        message: 'became leader',
        component: 'LeaderLatch',
        path: '/app/leader',
        id: 'worker-3',
      },
      { level: 'debug', message: 'plain' },
      { level: 'warn', message: 'no meta', component: 'LeaderLatch', path: '/app/leader' },
      {
        level: 'error',
        message: 'with error meta',
        component: 'LeaderLatch',
        path: '/app/leader',
        code: 'CONNECTION_LOSS',
      },
    ]);
  });
});

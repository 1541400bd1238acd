import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConnectionIssueLogger,
  type ConnectionIssueLogging,
} from '../../src/logging/connection-issue-logger.js';
import type { Logger } from '../../src/logging/logger.js';

interface Entry {
  level: 'error' | 'warn' | 'info' | 'debug';
  message: string;
  meta?: Record<string, unknown>;
}

function recordingLogger(): { logger: Logger; entries: Entry[] } {
  const entries: Entry[] = [];
  const record =
    (level: Entry['level']) =>
    (message: string, meta?: Record<string, unknown>): void => {
      entries.push(meta === undefined ? { level, message } : { level, message, meta });
    };
  const logger: Logger = {
    error: record('error'),
    warn: record('warn'),
    info: record('info'),
    debug: record('debug'),
    child: () => logger,
  };
  return { logger, entries };
}

// Two outages of three and one issues, with a reconnect after each.
function twoOutages(mode?: ConnectionIssueLogging): Entry[] {
  const { logger, entries } = recordingLogger();
  const issues = new ConnectionIssueLogger(logger, mode === undefined ? {} : { mode });
  issues.issue('ConnectionLoss', { path: '/a' });
  issues.issue('retrying', { attempt: 1 });
  issues.issue('operation timed out');
  issues.reconnected();
  issues.issue('ConnectionLoss again');
  issues.reconnected();
  return entries;
}

void describe('ConnectionIssueLogger', () => {
  void it("defaults to 'first-as-error': the first issue of each outage at error, the rest at debug", () => {
    assert.deepEqual(twoOutages(), [
      { level: 'error', message: 'ConnectionLoss', meta: { path: '/a' } },
      { level: 'debug', message: 'retrying', meta: { attempt: 1 } },
      { level: 'debug', message: 'operation timed out' },
      { level: 'info', message: 'connection restored after 3 issues', meta: { issues: 3 } },
      { level: 'error', message: 'ConnectionLoss again' },
      { level: 'info', message: 'connection restored after 1 issue', meta: { issues: 1 } },
    ]);
    assert.equal(new ConnectionIssueLogger(recordingLogger().logger).mode, 'first-as-error');
  });

  void it("'all' logs every issue at error", () => {
    assert.deepEqual(twoOutages('all'), [
      { level: 'error', message: 'ConnectionLoss', meta: { path: '/a' } },
      { level: 'error', message: 'retrying', meta: { attempt: 1 } },
      { level: 'error', message: 'operation timed out' },
      { level: 'info', message: 'connection restored after 3 issues', meta: { issues: 3 } },
      { level: 'error', message: 'ConnectionLoss again' },
      { level: 'info', message: 'connection restored after 1 issue', meta: { issues: 1 } },
    ]);
  });

  void it("'off' logs nothing, not even the restored line", () => {
    assert.deepEqual(twoOutages('off'), []);
  });

  void it('reconnected() without issues logs nothing', () => {
    const { logger, entries } = recordingLogger();
    const issues = new ConnectionIssueLogger(logger);
    issues.reconnected();
    issues.reconnected();
    assert.deepEqual(entries, []);
  });

  void it('counts the issues of the current outage, in every mode', () => {
    for (const mode of ['all', 'first-as-error', 'off'] as const) {
      const issues = new ConnectionIssueLogger(recordingLogger().logger, { mode });
      issues.issue('a');
      issues.issue('b');
      assert.equal(issues.issueCount, 2, mode);
      issues.reconnected();
      assert.equal(issues.issueCount, 0, mode);
    }
  });

  void it('rejects an unknown mode, naming the valid ones', () => {
    assert.throws(
      () =>
        new ConnectionIssueLogger(recordingLogger().logger, {
          mode: 'first' as ConnectionIssueLogging,
        }),
      {
        name: 'RangeError',
        message: `connectionIssueLogging must be one of 'all', 'first-as-error', 'off'; got "first"`,
      },
    );
  });
});

import { InvalidArgumentError } from './errors/zookeeper-error-classes.js';
import { CONNECTION_ISSUE_LOGGING_MODES } from './logging/connection-issue-logger.js';
import { describeValue, validateTimeoutMs } from './paths/validate-number.js';
import { validateNamespace } from './paths/zk-paths.js';
import type { FrameworkOptions } from './create-framework.js';

/** One `host:port` with a port in range; hosts are names or IPv4 addresses. */
const HOST_PORT = /^[A-Za-z0-9.-]+:(\d{1,5})$/;

function validateConnectString(connectString: unknown): void {
  if (typeof connectString !== 'string' || connectString.trim() === '') {
    throw new InvalidArgumentError(
      `connectString must be a non-empty string like '127.0.0.1:2181', got ${describeValue(connectString)}`,
    );
  }
  const slash = connectString.indexOf('/');
  const hosts = slash === -1 ? connectString : connectString.slice(0, slash);
  for (const host of hosts.split(',')) {
    const match = HOST_PORT.exec(host.trim());
    const port = Number(match?.[1]);
    if (!match || port < 1 || port > 65535) {
      throw new InvalidArgumentError(
        `connectString: '${host}' is not host:port (expected e.g. '127.0.0.1:2181,10.0.0.2:2181/chroot')`,
      );
    }
  }
}

/** Checks every option before anything is created, with a message naming the option. */
export function validateFrameworkOptions(options: FrameworkOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('createFramework needs an options object with connectString');
  }
  validateConnectString(options.connectString);
  for (const name of ['sessionTimeoutMs', 'connectionTimeoutMs', 'requestTimeoutMs'] as const) {
    const value = options[name];
    if (value !== undefined) validateTimeoutMs(name, value);
  }
  if (options.sessionTimeoutMs !== undefined && options.sessionTimeoutMs < 1) {
    throw new InvalidArgumentError('sessionTimeoutMs must be at least 1');
  }
  const percent = options.sessionExpirationPercent;
  if (percent !== undefined && !(Number.isFinite(percent) && percent >= 1 && percent <= 100)) {
    throw new InvalidArgumentError(
      `sessionExpirationPercent must be between 1 and 100, got ${describeValue(percent)}`,
    );
  }
  if (options.errorPolicy !== undefined && !['standard', 'session'].includes(options.errorPolicy)) {
    throw new InvalidArgumentError(
      `errorPolicy must be 'standard' or 'session', got ${describeValue(options.errorPolicy)}`,
    );
  }
  const issues = options.connectionIssueLogging;
  if (issues !== undefined && !CONNECTION_ISSUE_LOGGING_MODES.includes(issues)) {
    throw new InvalidArgumentError(
      `connectionIssueLogging must be one of ${CONNECTION_ISSUE_LOGGING_MODES.join(', ')}, got ${describeValue(issues)}`,
    );
  }
  const budget = options.watchBudgetBytes;
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) {
    throw new InvalidArgumentError(
      `watchBudgetBytes must be a positive integer, got ${describeValue(budget)}`,
    );
  }
  validateNamespace(options.namespace);
  for (const entry of options.authInfo ?? []) {
    if (typeof entry?.scheme !== 'string' || entry.scheme === '') {
      throw new InvalidArgumentError('authInfo: every entry needs a non-empty scheme');
    }
    if (typeof entry.auth !== 'string' && !Buffer.isBuffer(entry.auth)) {
      throw new InvalidArgumentError(`authInfo (${entry.scheme}): auth must be a string or Buffer`);
    }
  }
}

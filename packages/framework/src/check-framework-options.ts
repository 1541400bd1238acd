import { checkRetryPolicy } from './retry/check-retry-policy.js';
import { Buffer } from 'node:buffer';
import { InvalidArgumentError } from './errors/zookeeper-error-classes.js';
import { CONNECTION_ISSUE_LOGGING_MODES } from './logging/connection-issue-logger.js';
import { describeValue } from './errors/describe-value.js';
import { validateTimeoutMs } from './checks/validate-number.js';
import { validateNamespace } from './paths/zk-paths.js';
import { validatePath } from './paths/validate-path.js';
import { parseConnectString } from './paths/connect-string.js';
import { JUTE_MAX_BUFFER_BYTES } from './paths/validate-data.js';
import { closestName } from './checks/closest-name.js';
import type { FrameworkOptions } from './create-framework.js';
import { checkTlsOption } from './tls/check-tls-option.js';
import { checkSaslOptions } from './sasl/sasl-options.js';
import { SchemaSet } from './schema/schema-set.js';

/** Every option createFramework knows; anything else is a typo to report, not to ignore. */
const KNOWN_OPTIONS: readonly (keyof FrameworkOptions)[] = [
  'connectString',
  'retryPolicy',
  'sessionTimeoutMs',
  'connectionTimeoutMs',
  'requestTimeoutMs',
  'namespace',
  'logger',
  'errorPolicy',
  'sessionExpirationPercent',
  'authInfo',
  'sasl',
  'aclProvider',
  'connectionIssueLogging',
  'watchBudgetBytes',
  'maxRequestBytes',
  'closeOnExit',
  'detectEventLoopStalls',
  'meterProvider',
  'tracerProvider',
  'telemetryPaths',
  'useContainerParents',
  'writeWitnessPath',
  'tls',
  'ensembleTracker',
  'canBeReadOnly',
  'schemaSet',
  'compressionProvider',
  'compressionEnabled',
];

function rejectUnknownOptions(options: object): void {
  for (const [name, value] of Object.entries(options)) {
    // Set to undefined, an unknown option changes nothing: absent, as for recipe options.
    if (value === undefined || (KNOWN_OPTIONS as readonly string[]).includes(name)) continue;
    const near = closestName(name, KNOWN_OPTIONS);
    throw new InvalidArgumentError(
      `unknown option '${name}'${near === undefined ? '' : ` (did you mean '${near}'?)`}`,
    );
  }
}

/** Checks every option before anything is created, with a message naming the option. */
export function checkFrameworkOptions(options: FrameworkOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('createFramework needs an options object with connectString');
  }
  rejectUnknownOptions(options);
  parseConnectString(options.connectString);
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
  const maxRequestBytes = options.maxRequestBytes ?? JUTE_MAX_BUFFER_BYTES;
  if (!(Number.isInteger(maxRequestBytes) && maxRequestBytes >= 64 * 1024)) {
    throw new InvalidArgumentError(
      `maxRequestBytes must be a whole number of at least 65536 (the server's jute.maxbuffer), got ${describeValue(options.maxRequestBytes)}`,
    );
  }
  const budget = options.watchBudgetBytes;
  // Watched paths are re-sent in one SetWatches request on reconnect: it must fit.
  const budgetCap = maxRequestBytes - 1024;
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0 && budget <= budgetCap)) {
    throw new InvalidArgumentError(
      `watchBudgetBytes must be a whole number from 1 to ${budgetCap} (what one SetWatches request can carry under maxRequestBytes), got ${describeValue(budget)}`,
    );
  }
  validateNamespace(options.namespace);
  if (options.writeWitnessPath !== undefined) {
    validatePath(options.writeWitnessPath, { allowRoot: false });
  }
  checkAuthInfo(options.authInfo);
  if (options.schemaSet !== undefined && !(options.schemaSet instanceof SchemaSet)) {
    throw new InvalidArgumentError(
      `schemaSet must be a SchemaSet, got ${describeValue(options.schemaSet)}`,
    );
  }
  checkSaslOptions(options.sasl);
  if (options.retryPolicy !== undefined) checkRetryPolicy('retryPolicy', options.retryPolicy);
  checkAclProvider(options.aclProvider);
  checkCompressionProvider(options.compressionProvider);
  checkTlsOption(options.tls);
  checkLogger(options.logger);
  checkProvider('meterProvider', 'getMeter', options.meterProvider);
  checkProvider('tracerProvider', 'getTracer', options.tracerProvider);
  for (const name of [
    'closeOnExit',
    'detectEventLoopStalls',
    'useContainerParents',
    'telemetryPaths',
    'ensembleTracker',
    'canBeReadOnly',
    'compressionEnabled',
  ] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidArgumentError(`${name} must be true or false, got ${describeValue(value)}`);
    }
  }
}

function checkAuthInfo(authInfo: unknown): void {
  if (authInfo === undefined) return;
  if (!Array.isArray(authInfo)) {
    throw new InvalidArgumentError(
      `authInfo must be an array of { scheme, auth }, got ${describeValue(authInfo)}`,
    );
  }
  for (const entry of authInfo as unknown[]) {
    const { scheme, auth } = (entry ?? {}) as { scheme?: unknown; auth?: unknown };
    if (typeof scheme !== 'string' || scheme === '') {
      throw new InvalidArgumentError('authInfo: every entry needs a non-empty scheme');
    }
    if (typeof auth !== 'string' && !Buffer.isBuffer(auth)) {
      throw new InvalidArgumentError(`authInfo (${scheme}): auth must be a string or Buffer`);
    }
  }
}

function checkAclProvider(
  candidate: { readonly defaultAcl?: unknown; readonly aclForPath?: unknown } | null | undefined,
): void {
  if (candidate === undefined) return;
  if (
    typeof candidate?.defaultAcl !== 'function' ||
    (candidate.aclForPath !== undefined && typeof candidate.aclForPath !== 'function')
  ) {
    throw new InvalidArgumentError(
      `aclProvider must have defaultAcl() (and optionally aclForPath(path)); use aclProviderFrom(acl). Got ${describeValue(candidate)}`,
    );
  }
}

function checkCompressionProvider(candidate: unknown): void {
  if (candidate === undefined) return;
  const { compress, decompress } = (candidate ?? {}) as Record<string, unknown>;
  if (typeof compress !== 'function' || typeof decompress !== 'function') {
    throw new InvalidArgumentError(
      `compressionProvider must have compress(path, data) and decompress(path, data); got ${describeValue(candidate)}`,
    );
  }
}

function checkProvider(name: string, method: string, provider: unknown): void {
  if (provider === undefined) return;
  if (typeof (provider as Record<string, unknown> | null)?.[method] !== 'function') {
    throw new InvalidArgumentError(
      `${name} must be an OpenTelemetry provider (with ${method}()), got ${describeValue(provider)}`,
    );
  }
}

const LOGGER_METHODS = ['error', 'warn', 'info', 'debug'] as const;

function checkLogger(logger: unknown): void {
  if (logger === undefined) return;
  const candidate = logger as Record<string, unknown> | null;
  const missing = LOGGER_METHODS.filter((name) => typeof candidate?.[name] !== 'function');
  if (missing.length > 0) {
    throw new InvalidArgumentError(
      `logger must have ${LOGGER_METHODS.join(', ')} methods (winston-compatible); missing: ${missing.join(', ')}`,
    );
  }
}

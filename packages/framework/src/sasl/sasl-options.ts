import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { DigestMd5Mechanism } from './digest-md5-mechanism.js';
import type { SaslMechanism, SaslOptions } from './sasl-mechanism.js';

/** The mechanism the `sasl` option names; throws an InvalidArgumentError on a bad option. */
export function saslMechanismOf(sasl: SaslOptions): SaslMechanism {
  checkSaslOptions(sasl);
  if ('mechanism' in sasl) {
    return new DigestMd5Mechanism({
      username: sasl.username,
      password: sasl.password,
      protocol: sasl.protocol,
      serverName: sasl.serverName,
    });
  }
  return sasl;
}

/** The mechanism with how errors name it: `DIGEST-MD5 as 'bob'`. */
export function describeSasl(mechanism: SaslMechanism): {
  mechanism: SaslMechanism;
  describe: string;
} {
  const user = typeof mechanism.username === 'string' ? ` as '${mechanism.username}'` : '';
  return { mechanism, describe: `${mechanism.name}${user}` };
}

/** Checks the `sasl` option as JavaScript callers may pass it. */
export function checkSaslOptions(sasl: unknown): void {
  if (sasl === undefined) return;
  if (typeof sasl !== 'object' || sasl === null) {
    throw new InvalidArgumentError(
      `sasl must be { mechanism: 'DIGEST-MD5', username, password } or a SaslMechanism, got ${describeValue(sasl)}`,
    );
  }
  const options = sasl as Record<string, unknown>;
  if ('mechanism' in options) {
    if (options.mechanism !== 'DIGEST-MD5') {
      throw new InvalidArgumentError(
        `sasl.mechanism: only 'DIGEST-MD5' is built in (pass a SaslMechanism object for another), got ${describeValue(options.mechanism)}`,
      );
    }
    for (const name of ['username', 'password'] as const) {
      if (typeof options[name] !== 'string' || options[name] === '') {
        throw new InvalidArgumentError(`sasl.${name} must be a non-empty string`);
      }
    }
    for (const name of ['protocol', 'serverName'] as const) {
      const value = options[name];
      if (value !== undefined && (typeof value !== 'string' || value === '')) {
        throw new InvalidArgumentError(`sasl.${name} must be a non-empty string when given`);
      }
    }
    return;
  }
  if (
    typeof options.name !== 'string' ||
    typeof options.start !== 'function' ||
    typeof options.evaluate !== 'function'
  ) {
    throw new InvalidArgumentError(
      'sasl: a SaslMechanism needs a name, start() and evaluate(challenge) (and a complete flag)',
    );
  }
}

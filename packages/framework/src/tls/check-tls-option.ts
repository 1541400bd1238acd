/**
 * Checks createFramework's `tls` option before anything connects: its shape, no address keys
 * (the connect string says where), and, for fixed options, that Node can make a secure
 * context of them (a key that does not parse, a wrong passphrase, an unknown minVersion), so
 * such a mistake is an InvalidArgumentError at once and not a failing connection later.
 */
import { createSecureContext } from 'node:tls';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { ADDRESS_KEYS } from './tls-options.js';

export function checkTlsOption(option: unknown): void {
  if (option === undefined || typeof option === 'boolean' || typeof option === 'function') return;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new InvalidArgumentError(
      `tls must be true, tls.connect options ({ ca, cert, key, ... }) or a function returning them, got ${describeValue(option)}`,
    );
  }
  checkTlsOptions(option as Record<string, unknown>);
}

function checkTlsOptions(options: Record<string, unknown>): void {
  for (const key of ADDRESS_KEYS) {
    if (options[key] !== undefined) {
      throw new InvalidArgumentError(
        `tls.${key}: where to connect comes from connectString (use tls.servername for the name the certificate must carry)`,
      );
    }
  }
  const { rejectUnauthorized, servername, checkServerIdentity } = options;
  if (rejectUnauthorized !== undefined && typeof rejectUnauthorized !== 'boolean') {
    throw new InvalidArgumentError(
      `tls.rejectUnauthorized must be true or false, got ${describeValue(rejectUnauthorized)}`,
    );
  }
  if (servername !== undefined && (typeof servername !== 'string' || servername === '')) {
    throw new InvalidArgumentError(
      `tls.servername must be a non-empty string, got ${describeValue(servername)}`,
    );
  }
  if (checkServerIdentity !== undefined && typeof checkServerIdentity !== 'function') {
    throw new InvalidArgumentError(
      `tls.checkServerIdentity must be a function, got ${describeValue(checkServerIdentity)}`,
    );
  }
  if (options.secureContext !== undefined) return;
  try {
    createSecureContext(options);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new InvalidArgumentError(
      `tls: Node cannot use these options: ${(error as Error).message}${typeof code === 'string' ? ` (${code})` : ''}`,
      { cause: error },
    );
  }
}

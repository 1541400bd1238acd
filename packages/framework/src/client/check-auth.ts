import { Buffer } from 'node:buffer';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';

/**
 * Checks addAuth's input before anything is sent and returns the bytes to send: a non-empty
 * scheme, and auth as a string (sent as UTF-8) or bytes. A `digest` auth without a ':' is
 * refused here: the server would refuse it with AUTH_FAILED, which ends the client.
 */
export function checkAuth(scheme: unknown, auth: unknown): Buffer {
  if (typeof scheme !== 'string' || scheme === '') {
    throw new InvalidArgumentError(
      `addAuth: scheme must be a non-empty string; got ${describeValue(scheme)}`,
    );
  }
  let bytes: Buffer;
  if (typeof auth === 'string') bytes = Buffer.from(auth);
  else if (auth instanceof Uint8Array) bytes = Buffer.from(auth);
  else {
    throw new InvalidArgumentError(
      `addAuth (${scheme}): auth must be a string or bytes; got ${describeValue(auth)}`,
    );
  }
  if (scheme === 'digest' && !bytes.includes(':')) {
    throw new InvalidArgumentError(
      "addAuth (digest): auth must read 'user:password' (the server refuses it otherwise)",
    );
  }
  return bytes;
}

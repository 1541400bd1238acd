import { isZooKeeperError } from '../errors/predicates.js';

/**
 * The `error.type` attribute of a failed operation, as OpenTelemetry's conventions ask: a
 * value of few possibilities that tells failures apart. A ZooKeeperError gives its code
 * (`CONNECTION_LOSS`, `NO_NODE`, `CLOSED`); another error its string `code` (Node's
 * `ECONNRESET`), else its class name (`TypeError`, an application's own error class); anything
 * thrown that is not an Error gives `_OTHER`, the conventions' fallback.
 */
export function errorTypeOf(error: unknown): string {
  if (isZooKeeperError(error)) return error.code;
  if (!(error instanceof Error)) return '_OTHER';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '') return code;
  if (error.name !== 'Error' && error.name !== '') return error.name;
  const className = (error.constructor as { name?: unknown } | undefined)?.name;
  return typeof className === 'string' && className !== '' ? className : 'Error';
}

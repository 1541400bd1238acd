/**
 * The `tls` option of createFramework: TLS on every connection to the ensemble, with the
 * options Node's `tls.connect` takes (minus where to connect: that is the connect string's).
 */
import type { ConnectionOptions } from 'node:tls';

/**
 * What `tls.connect` takes, without the address (`host`, `port`, `path`, `socket`, `lookup`,
 * `timeout`): those come from the connect string and the client's own timers. Hostname
 * verification is on (the certificate must name the connect string's host, or `servername`
 * when given), as is `rejectUnauthorized`.
 */
export type TlsOptions = Omit<
  ConnectionOptions,
  'host' | 'port' | 'path' | 'socket' | 'lookup' | 'timeout'
>;

/**
 * The `tls` option: `true` (Node's default trusted CAs, no client certificate), the options,
 * or a function called for every connection attempt that returns them, so rotated
 * certificates are used from the next connection on without a restart. The function must be
 * synchronous (nzc opens its socket in the same tick it picks the server); read files with
 * `readFileSync` there, or return material kept up to date elsewhere.
 */
export type TlsOption = boolean | TlsOptions | (() => TlsOptions);

/** The keys `tls` must not have: where to connect is the connect string's business. */
export const ADDRESS_KEYS: readonly string[] = [
  'host',
  'port',
  'path',
  'socket',
  'lookup',
  'timeout',
];

/** The options of one connection attempt, or undefined without TLS. */
export type TlsSource = () => TlsOptions;

/** Turns the `tls` option into what each connection attempt calls; undefined without TLS. */
export function tlsSource(option: TlsOption | undefined): TlsSource | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return () => ({});
  if (typeof option === 'function') return option;
  const fixed = { ...option };
  return () => fixed;
}

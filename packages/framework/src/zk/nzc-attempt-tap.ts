/**
 * Tells a ConnectionAttempts what each of one nzc client's connection attempts went through:
 * nzc tries server after server and keeps every socket error to itself. Per-instance overrides
 * of the connection manager's methods (nzc binds them to each new socket from the instance), so
 * other nzc clients in the process are left as they are.
 */
import type { ConnectionAttempts } from './connection-attempts.js';
import type { NzcConnectionManager } from './nzc-types.js';

/** How {@link tapConnectionAttempts} learns that its client is over, and who else hears the server. */
export interface AttemptTapOptions {
  /** True once the client closed or was abandoned: its attempts are nobody's news. */
  readonly isOver: () => boolean;
  /** Called with the server of every attempt, as it begins. */
  readonly onServer: (server: { host: string; port: number }) => void;
  /** The attempts are TLS ones (nzc-tls-socket.ts). */
  readonly tls: boolean;
}

export function tapConnectionAttempts(
  manager: NzcConnectionManager,
  attempts: ConnectionAttempts,
  { isOver, onServer, tls }: AttemptTapOptions,
): void {
  const findNextServer = manager.findNextServer.bind(manager);
  manager.findNextServer = (callback): void =>
    findNextServer((server) => {
      onServer(server);
      if (!isOver()) attempts.started(server, { tls });
      callback(server);
    });
  const onSocketConnected = manager.onSocketConnected.bind(manager);
  manager.onSocketConnected = (): void => {
    if (!isOver()) attempts.tcpConnected();
    onSocketConnected();
  };
  const onSocketError = manager.onSocketError.bind(manager);
  manager.onSocketError = (error): void => {
    if (!isOver()) attempts.failing(error);
    onSocketError(error);
  };
  const onSocketConnectTimeout = manager.onSocketConnectTimeout.bind(manager);
  manager.onSocketConnectTimeout = (): void => {
    if (!isOver()) attempts.connectTimedOut(manager.connectTimeout);
    onSocketConnectTimeout();
  };
  const onSocketClosed = manager.onSocketClosed.bind(manager);
  manager.onSocketClosed = (hadError): void => {
    if (!isOver()) attempts.ended();
    onSocketClosed(hadError);
  };
}

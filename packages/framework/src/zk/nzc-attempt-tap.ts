/**
 * Tells a ConnectionAttempts what each of one nzc client's connection attempts went through:
 * nzc tries server after server and keeps every socket error to itself. Per-instance overrides
 * of the connection manager's methods (nzc binds them to each new socket from the instance), so
 * other nzc clients in the process are left as they are.
 */
import { attemptError, type ConnectionAttempts } from './connection-attempts.js';
import type { NzcConnectionManager } from './nzc-types.js';

export function tapConnectionAttempts(
  manager: NzcConnectionManager,
  attempts: ConnectionAttempts,
  isOver: () => boolean,
): void {
  const findNextServer = manager.findNextServer.bind(manager);
  manager.findNextServer = (callback): void =>
    findNextServer((server) => {
      if (!isOver()) attempts.started(server);
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
    if (!isOver()) {
      attempts.failing(
        attemptError('ETIMEDOUT', `no TCP connection within ${manager.connectTimeout} ms`),
      );
    }
    onSocketConnectTimeout();
  };
  const onSocketClosed = manager.onSocketClosed.bind(manager);
  manager.onSocketClosed = (hadError): void => {
    if (!isOver()) attempts.ended();
    onSocketClosed(hadError);
  };
}

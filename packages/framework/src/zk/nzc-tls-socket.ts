/**
 * TLS for one nzc client: its connection manager opens each socket with `tls.connect` instead
 * of `net.connect`, and binds nzc's handshake writer to 'secureConnect', so nothing is written
 * before the TLS handshake is done. A per-instance override of the manager's `connect`, the
 * rest of nzc's socket handling unchanged; other nzc clients in the process keep plain TCP.
 */
import { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { TlsSource } from '../tls/tls-options.js';
import type { NzcConnectionManager } from './nzc-types.js';

/** nzc's CONNECTING state (ConnectionManager's STATES). */
const NZC_CONNECTING = 1;

/** What {@link useTlsSockets} reports about each attempt's TLS stage. */
export interface TlsSocketEvents {
  /** The TCP connection is up; the TLS handshake begins. */
  readonly tcpConnected: () => void;
  /** The options could not be had or used: the attempt fails with this error. */
  readonly optionsFailed: (error: Error) => void;
}

/**
 * The socket for an attempt whose TLS options failed (the function threw, a key did not
 * parse): it fails at once with `error`, on the next tick, the way a refused connection does,
 * so nzc moves on to the next server and the attempt's cause is the options' error.
 */
function failedSocket(error: Error): Socket {
  const socket = new Socket();
  process.nextTick(() => socket.destroy(error));
  return socket;
}

export function useTlsSockets(
  manager: NzcConnectionManager,
  options: TlsSource,
  events: TlsSocketEvents,
): void {
  manager.connect = (): void => {
    manager.setState(NZC_CONNECTING);
    manager.findNextServer((server) => {
      let socket: Socket;
      try {
        const tls = options();
        socket = tlsConnect({ ...tls, host: server.host, port: server.port });
        socket.once('connect', () => events.tcpConnected());
      } catch (thrown) {
        const error = Object.assign(
          new Error(`the tls options failed: ${(thrown as Error).message ?? String(thrown)}`, {
            cause: thrown,
          }),
          { code: 'ERR_TLS_OPTIONS' },
        );
        events.optionsFailed(error);
        socket = failedSocket(error);
      }
      manager.socket = socket;
      // nzc's connect timer covers the TLS handshake too: 'secureConnect' is what clears it.
      manager.connectTimeoutHandler = setTimeout(
        manager.onSocketConnectTimeout.bind(manager),
        manager.connectTimeout,
      );
      socket.setNoDelay();
      socket.on('secureConnect', manager.onSocketConnected.bind(manager));
      socket.on('data', manager.onSocketData.bind(manager));
      socket.on('drain', manager.onSocketDrain.bind(manager));
      socket.on('close', manager.onSocketClosed.bind(manager));
      socket.on('error', manager.onSocketError.bind(manager));
    });
  };
}

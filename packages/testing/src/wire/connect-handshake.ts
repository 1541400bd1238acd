// Opening a session: TCP to one of the hosts, then ConnectRequest / ConnectResponse. Kept
// apart from the request loop because it is a different conversation: one frame each way,
// a retry over hosts, and a definitive "expired" answer that must not be retried.
import net from 'node:net';
import { decodeConnectResponse, encodeConnectRequest, FrameDecoder } from '@zkrecipes/wire';
import { RawZooKeeperError } from './raw-zookeeper-error.js';
import { ZooKeeperErrorCode } from './protocol.js';

/** One server address: what a {@link RawZooKeeperSession} is connected to. */
export interface HostPort {
  /** The host name or IP address, e.g. `'127.0.0.1'`. */
  host: string;
  /** The client port. */
  port: number;
}

export interface HandshakeRequest {
  sessionTimeoutMs: number;
  /** 0n for a new session. */
  sessionId: bigint;
  /** 16 zero bytes for a new session, as the Java client sends. */
  password: Buffer;
  /**
   * Frames sent in the same write as the ConnectRequest, before any reply: the server
   * reads them right behind it. killSession uses this to leave no gap for a race.
   */
  pipeline?: Buffer;
}

export interface Handshake {
  socket: net.Socket;
  decoder: FrameDecoder;
  /** Frames that arrived right behind the ConnectResponse. */
  extraFrames: Buffer[];
  host: HostPort;
  sessionId: bigint;
  password: Buffer;
  sessionTimeoutMs: number;
}

/** `host:port,host:port` -> hosts. A chroot suffix is not supported by the raw session. */
export function parseConnectString(connectString: string): HostPort[] {
  if (connectString.includes('/')) {
    throw new Error(`raw session: chroot is not supported (${connectString})`);
  }
  return connectString.split(',').map((entry) => {
    const match = /^\s*(.+):(\d+)\s*$/.exec(entry);
    if (!match?.[1] || !match[2]) throw new Error(`bad host:port ${JSON.stringify(entry)}`);
    return { host: match[1], port: Number(match[2]) };
  });
}

/**
 * Tries each host in order until one completes the handshake before `deadline` (epoch ms).
 * Rejects with SESSION_EXPIRED when a server says the session is gone, which no other
 * host would contradict, and with CONNECTION_LOSS or TIMEOUT when no host answers.
 */
export async function handshake(
  hosts: readonly HostPort[],
  request: HandshakeRequest,
  deadline: number,
): Promise<Handshake> {
  const failures: string[] = [];
  for (const host of hosts) {
    if (Date.now() >= deadline) break;
    try {
      return await handshakeOne(host, request, deadline);
    } catch (error) {
      if (error instanceof RawZooKeeperError && error.code === ZooKeeperErrorCode.SESSION_EXPIRED) {
        throw error;
      }
      failures.push(
        `${host.host}:${host.port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const timedOut = Date.now() >= deadline;
  throw new RawZooKeeperError(
    timedOut ? 'TIMEOUT' : ZooKeeperErrorCode.CONNECTION_LOSS,
    `could not open a session (${failures.join('; ') || 'connect deadline passed'})`,
  );
}

function handshakeOne(
  host: HostPort,
  request: HandshakeRequest,
  deadline: number,
): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: host.host, port: host.port });
    socket.setNoDelay(true);
    const decoder = new FrameDecoder();
    const timer = setTimeout(
      () => fail(new Error('no ConnectResponse before the deadline')),
      Math.max(0, deadline - Date.now()),
    );
    function fail(error: Error): void {
      cleanup();
      socket.destroy();
      reject(error);
    }
    function cleanup(): void {
      clearTimeout(timer);
      // Paused so no byte is lost before the session attaches its own listener.
      socket.pause();
      socket.removeListener('data', onData);
      socket.removeListener('error', fail);
      socket.removeListener('close', onClose);
    }
    function onClose(): void {
      fail(new Error('connection closed before ConnectResponse'));
    }
    function onData(chunk: Buffer): void {
      let frames: Buffer[];
      try {
        frames = decoder.push(chunk);
      } catch (error) {
        fail(error as Error);
        return;
      }
      const [first, ...rest] = frames;
      if (first === undefined) return;
      let response: ReturnType<typeof decodeConnectResponse>;
      try {
        response = decodeConnectResponse(first);
      } catch (error) {
        fail(error as Error);
        return;
      }
      const { sessionTimeoutMs: timeOut, sessionId, password } = response;
      if (timeOut <= 0 || sessionId === 0n) {
        // The server's way to say the session we asked for no longer exists.
        fail(new RawZooKeeperError(ZooKeeperErrorCode.SESSION_EXPIRED, 'session expired'));
        return;
      }
      cleanup();
      resolve({
        socket,
        decoder,
        extraFrames: rest,
        host,
        sessionId,
        password,
        sessionTimeoutMs: timeOut,
      });
    }
    socket.on('connect', () => {
      const connectRequest = encodeConnectRequest({
        lastZxidSeen: 0n, // 0 never makes a server refuse us as being behind
        sessionTimeoutMs: request.sessionTimeoutMs,
        sessionId: request.sessionId,
        password: request.password,
        readOnly: false,
      });
      socket.write(
        request.pipeline ? Buffer.concat([connectRequest, request.pipeline]) : connectRequest,
      );
    });
    socket.on('data', onData);
    socket.on('error', fail);
    socket.on('close', onClose);
  });
}

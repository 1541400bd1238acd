// Real server-side session expiry, the way Curator's KillSession did it before ZooKeeper
// grew a test hook: connect a second time with the same session id and password (the
// server moves the session to us and drops the owner's connection), then close it. The
// server deletes the session's ephemerals and the owner's next reconnect is told
// "expired". Then we ask every server (`dump`) whether it still knows the session, because
// the owner may reconnect in between and win the session back; if so we take it again.
// The takeover speaks the wire protocol directly (not RawZooKeeperSession) so closeSession
// can ride in the same packet as the attach.
import { setTimeout as delay } from 'node:timers/promises';
import { fourLetterWord } from './four-letter-word.js';
import { sessionIdHex, type SessionCredentials, type SessionOwner } from './session-credentials.js';
import { timing } from './timing.js';
import { handshake, parseConnectString, type HostPort } from './wire/connect-handshake.js';
import { encodeRequest, JuteReader, readReplyHeader } from '@zkrecipes/wire';
import { OpCode, ZooKeeperErrorCode } from './wire/protocol.js';
import { RawZooKeeperError } from './wire/raw-zookeeper-error.js';

/** Options of {@link killSession}. */
export interface KillSessionOptions {
  /** Overall deadline for takeover and verification, before scaling. Default 10000. */
  timeoutMs?: number;
}

/**
 * How long one takeover is given to show up in every server's view before we take the
 * session again; followers apply a close within milliseconds on loopback.
 */
const VERIFY_WINDOW_MS = 250;

/**
 * Expires `target`'s session on the server. `connectString` lists the server(s) to use; for
 * a cluster, list every server: each is asked (`dump`) whether it still knows the session.
 * Resolves once no reachable server lists the session id, so its ephemerals are gone
 * everywhere; rejects if that cannot be reached within `timeoutMs`.
 */
export async function killSession(
  target: SessionCredentials | SessionOwner,
  connectString: string,
  options: KillSessionOptions = {},
): Promise<void> {
  const credentials = 'sessionCredentials' in target ? target.sessionCredentials() : target;
  if (credentials === undefined) {
    throw new Error('killSession: the client has no session (is it connected?)');
  }
  const hex = sessionIdHex(credentials.sessionId);
  const hosts = parseConnectString(connectString);
  const timeoutMs = timing.ms(options.timeoutMs ?? 10_000);
  const deadline = Date.now() + timeoutMs;
  let takeoverProblem = '';
  let listedBy: string[] = [];
  while (Date.now() < deadline) {
    takeoverProblem = '';
    try {
      await takeOverAndClose(credentials, hosts, deadline);
    } catch (error) {
      // SESSION_EXPIRED: someone (maybe an earlier attempt of ours) already ended it.
      if (!(
        error instanceof RawZooKeeperError && error.code === ZooKeeperErrorCode.SESSION_EXPIRED
      )) {
        takeoverProblem = error instanceof Error ? error.message : String(error);
      }
    }
    const verifyUntil = Math.min(deadline, Date.now() + timing.ms(VERIFY_WINDOW_MS));
    for (;;) {
      listedBy = await hostsListing(hosts, hex, deadline);
      if (listedBy.length === 0) return;
      if (Date.now() >= verifyUntil) break;
      await delay(25);
    }
  }
  const takeover = takeoverProblem === '' ? '' : `; last takeover failed: ${takeoverProblem}`;
  throw new Error(
    `killSession: could not expire session ${hex} within ${timeoutMs} ms ` +
      `(still listed by ${listedBy.join(', ') || 'no server'}${takeover})`,
  );
}

/**
 * Attaches to the session and closes it. closeSession goes out in the same write as the
 * ConnectRequest, so the server reads it right behind the attach: an owner that
 * reconnects the moment it loses its connection has no window to win the session back.
 * Resolves once the server answered the close or hung up; rejects with SESSION_EXPIRED if
 * the session was already gone.
 */
async function takeOverAndClose(
  credentials: SessionCredentials,
  hosts: readonly HostPort[],
  deadline: number,
): Promise<void> {
  const closeXid = 1;
  const opened = await handshake(
    hosts,
    {
      sessionTimeoutMs: 10_000,
      sessionId: credentials.sessionId,
      password: credentials.password,
      pipeline: encodeRequest(closeXid, OpCode.closeSession, Buffer.alloc(0)),
    },
    deadline,
  );
  const { socket, decoder } = opened;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error('no reply to closeSession')),
      Math.max(0, deadline - Date.now()),
    );
    function finish(error?: Error): void {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    }
    function onFrames(frames: Buffer[]): void {
      for (const frame of frames) {
        const { xid, err } = readReplyHeader(new JuteReader(frame));
        if (xid !== closeXid) continue;
        finish(err === 0 ? undefined : new RawZooKeeperError(err, 'closeSession'));
      }
    }
    socket.on('data', (chunk: Buffer) => {
      try {
        onFrames(decoder.push(chunk));
      } catch (error) {
        finish(error as Error);
      }
    });
    // The server hangs up after closing a session; verification decides what happened.
    socket.on('close', () => finish());
    socket.on('error', () => finish());
    onFrames(opened.extraFrames);
    socket.resume();
  });
}

/**
 * Hosts whose `dump` still lists `hex` as a session or as an owner of ephemerals. Every
 * quorum member lists all global sessions, so an empty answer also means every follower
 * has applied the close. The "Connections dump" part is ignored: if the owner re-attached
 * in the same instant as the takeover, ZooKeeper can leave its connection open, still
 * labelled with the dead session, until the connection itself expires; the session is
 * gone all the same (an attach is answered "expired"). A host that cannot be reached or
 * is not serving cannot hold the session and does not count, but if no host answers at
 * all nothing is proven, and every host is reported.
 */
async function hostsListing(
  hosts: readonly HostPort[],
  hex: string,
  deadline: number,
): Promise<string[]> {
  const pattern = new RegExp(`${hex}(?![0-9a-f])`, 'i');
  const timeoutMs = Math.max(1, Math.min(timing.ms(1000), deadline - Date.now()));
  const answers = await Promise.all(
    hosts.map(async ({ host, port }) => {
      const name = `${host}:${port}`;
      try {
        const dump = await fourLetterWord(host, port, 'dump', { timeoutMs });
        if (!dump.includes('SessionTracker dump')) return { name, answered: false, listed: false };
        const sessions = dump.split('Connections dump:')[0] ?? '';
        return { name, answered: true, listed: pattern.test(sessions) };
      } catch {
        return { name, answered: false, listed: false };
      }
    }),
  );
  if (!answers.some((a) => a.answered)) return answers.map((a) => `${a.name} (no server answered)`);
  return answers.filter((a) => a.listed).map((a) => a.name);
}

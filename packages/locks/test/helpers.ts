// Shared test helpers: an overlap witness, a round-trip counter and the server's watch and
// packet counters.
import assert from 'node:assert/strict';
import type { FrameworkClient } from '@zkrecipes/framework';
import { mntr, sessionIdHex, type TestingServer } from '@zkrecipes/testing';

/**
 * The in-process invariant checker of the fault tests: fails on two holders at once and on a
 * fencing token that does not grow.
 */
export class OverlapWitness {
  #holders = 0;
  #lastToken: bigint | undefined;
  maxHolders = 0;
  handoffs = 0;
  readonly violations: string[] = [];

  enter(who: string, token?: bigint): void {
    this.#holders++;
    this.maxHolders = Math.max(this.maxHolders, this.#holders);
    if (this.#holders > 1) this.violations.push(`${who} entered while another held the lock`);
    if (token !== undefined) {
      if (this.#lastToken !== undefined && token <= this.#lastToken) {
        this.violations.push(`${who} got fencing token ${token} after ${this.#lastToken}`);
      }
      this.#lastToken = token;
    }
    this.handoffs++;
  }

  exit(): void {
    this.#holders--;
  }
}

/** One client call as the tracing proxy saw it. */
export interface TracedCall {
  readonly op: string;
  readonly path: unknown;
  /**
   * True when the caller had to wait for an answer before making this call (or nothing was in
   * flight): it starts a new round trip. Calls made back to back, before any answer arrived,
   * travel together (pipelined).
   */
  readonly opensRoundTrip: boolean;
}

/**
 * Wraps a client so every operation is recorded. A call made after some answer arrived (or
 * with nothing in flight) opens a round trip; calls made back to back ride in the same one.
 * `roundTrips()` counts them: the number of times the caller waited on the network.
 */
export function tracingClient(client: FrameworkClient): {
  client: FrameworkClient;
  calls: TracedCall[];
  roundTrips: () => number;
  reset: () => void;
} {
  const ops = new Set(['create', 'delete', 'exists', 'getData', 'getChildren', 'setData']);
  const calls: TracedCall[] = [];
  let inFlight = 0;
  let answered = true;
  const traced = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof property !== 'string' || !ops.has(property)) return method;
      return (...args: unknown[]) => {
        calls.push({ op: property, path: args[0], opensRoundTrip: answered || inFlight === 0 });
        answered = false;
        inFlight++;
        const settle = (): void => {
          inFlight--;
          answered = true;
        };
        const result = method(...args) as Promise<unknown>;
        result.then(settle, settle);
        return result;
      };
    },
  });
  return {
    client: traced,
    calls,
    roundTrips: () => calls.filter((call) => call.opensRoundTrip).length,
    reset: () => calls.splice(0),
  };
}

/** The paths the server holds watches on for `client`'s session (four-letter word `wchc`). */
export async function watchedPaths(
  server: TestingServer,
  client: FrameworkClient,
): Promise<string[]> {
  const sessionId = client.sessionId;
  assert.ok(sessionId !== undefined);
  const wanted = sessionIdHex(sessionId);
  const paths: string[] = [];
  let current: string | undefined;
  for (const line of (await server.fourLetter('wchc')).split('\n')) {
    if (line.startsWith('0x')) current = line.trim();
    else if (line.startsWith('\t') && current === wanted) paths.push(line.trim());
  }
  return paths;
}

/** The sessions watching `path` (four-letter word `wchp`), as `0x...` ids. */
export async function watchersOf(server: TestingServer, path: string): Promise<string[]> {
  const sessions: string[] = [];
  let current: string | undefined;
  for (const line of (await server.fourLetter('wchp')).split('\n')) {
    if (line.startsWith('/')) current = line.trim();
    else if (line.startsWith('\t') && current === path) sessions.push(line.trim());
  }
  return sessions;
}

/** The server's count of received packets (`mntr`), for counting requests. */
export async function packetsReceived(server: TestingServer): Promise<number> {
  const packets = (await mntr(server.host, server.port)).get('packets_received');
  assert.ok(packets !== undefined, 'mntr reports zk_packets_received');
  return packets;
}

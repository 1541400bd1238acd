// How one node is shown: the facts an operator needs at 3 a.m. (whose session, since when,
// what it says), in JSON-safe types: 64-bit ids become strings, buffers become text.
import type { Znode } from './znode.js';

/** A node's data as text: UTF-8 when it decodes cleanly and is printable, base64 otherwise. */
export interface DataView {
  /** The data as text in `encoding`; empty for no data. */
  readonly data: string;
  /** How `data` is written. */
  readonly encoding: 'utf8' | 'base64';
}

/** One recipe node (a lock participant, a lease, a member, an item) as shown. */
export interface NodeView extends DataView {
  /** The node's name under the recipe path. */
  readonly name: string;
  /** The owning session, `0x...` as ZooKeeper logs it; `0x0` for a persistent node. */
  readonly sessionId: string;
  /** The node's czxid in decimal: the recipe's fencing token (it only grows). */
  readonly fencingToken: string;
  /** When the node was created (ISO 8601, server clock). */
  readonly createdAt: string;
  /** Milliseconds since `createdAt`, measured against this machine's clock. */
  readonly ageMs: number;
}

/** Control characters other than tab/CR/LF, or a decoding failure: the payload is binary. */
function looksBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) {
      return true;
    }
    if (code === 0xfffd) return true;
  }
  return false;
}

/** The data of a node as text (see {@link DataView}). */
export function dataView(data: Buffer | undefined): DataView {
  if (data === undefined || data.length === 0) return { data: '', encoding: 'utf8' };
  const text = data.toString('utf8');
  if (!looksBinary(text) && Buffer.byteLength(text) === data.length) {
    return { data: text, encoding: 'utf8' };
  }
  return { data: data.toString('base64'), encoding: 'base64' };
}

/** A session id as ZooKeeper's own logs print it. */
export function sessionIdHex(sessionId: bigint): string {
  return `0x${BigInt.asUintN(64, sessionId).toString(16)}`;
}

/** The view of one node, ages measured from `now`. */
export function nodeView(node: Znode, now: number): NodeView {
  return {
    name: node.name,
    sessionId: sessionIdHex(node.stat.ephemeralOwner),
    fencingToken: node.stat.czxid.toString(),
    createdAt: new Date(node.stat.ctime).toISOString(),
    ageMs: Math.max(0, now - node.stat.ctime),
    ...dataView(node.data),
  };
}

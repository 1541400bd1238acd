// The ensemble's configuration as ZooKeeper 3.5+ keeps it in /zookeeper/config: one
// `server.<id>=...` line per member, then `version=<hex>`. Parsed here once for getConfig,
// reconfig's reply and the ensemble tracker (docs/framework/ensembles.md).
import type { Buffer } from 'node:buffer';
import type { ServerAddress } from './connect-string.js';

/** Where ZooKeeper keeps the configuration, whatever the chroot or namespace. */
export const CONFIG_NODE = '/zookeeper/config';

/** A member's role: a voting participant or a non-voting observer. */
export type EnsembleMemberRole = 'participant' | 'observer';

/** One `server.<id>=` line. */
export interface EnsembleMember {
  /** The server id (its myid). */
  readonly id: number;
  /** The host of the quorum and election addresses (IPv6 without brackets). */
  readonly host: string;
  /** The port followers talk to the leader on. */
  readonly quorumPort: number;
  /** The leader election port. */
  readonly electionPort: number;
  /** A voting participant, or a non-voting observer. */
  readonly role: EnsembleMemberRole;
  /**
   * The address clients connect to, undefined when the line has none (a server whose client
   * port comes from its static zoo.cfg). `0.0.0.0` and `::` are kept as the server wrote them.
   */
  readonly clientHost: string | undefined;
  /** The client port, undefined when the line has none (see `clientHost`). */
  readonly clientPort: number | undefined;
}

/** The parsed content of /zookeeper/config. */
export interface EnsembleConfig {
  /** The members in the order of their lines. */
  readonly members: readonly EnsembleMember[];
  /**
   * The configuration's version (the zxid that made it), what `reconfig`'s `fromConfig` takes;
   * undefined when the data has no `version=` line (a server without dynamic configuration).
   */
  readonly version: bigint | undefined;
  /** The `version=` value as written (hex), undefined without one. */
  readonly versionHex: string | undefined;
  /** The data as the server holds it. */
  readonly raw: string;
}

const SERVER_LINE = /^server\.(\d+)=(.*)$/;
const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]*)):(\d{1,5})$/;

/** `host:port` or `[v6]:port` or (client side only) a bare port. */
function hostPort(text: string): { host: string | undefined; port: number } | undefined {
  if (/^\d{1,5}$/.test(text)) return { host: undefined, port: Number(text) };
  const match = HOST_PORT.exec(text);
  if (!match) return undefined;
  return { host: match[1] ?? match[2], port: Number(match[3]) };
}

/** `<host>:<quorum>:<election>[|...][:role];[<clientHost>:]<clientPort>[;secure]`. */
function parseMember(id: number, spec: string): EnsembleMember | undefined {
  const [serverPart = '', clientPart] = spec.trim().split(';');
  // Several addresses per server (`a:1:2|b:1:2`): the first names it.
  let address = serverPart.split('|')[0] ?? '';
  let role: EnsembleMemberRole = 'participant';
  const roleMatch = /:(participant|observer)$/.exec(serverPart);
  if (roleMatch) {
    role = roleMatch[1] as EnsembleMemberRole;
    if (address.endsWith(roleMatch[0])) address = address.slice(0, -roleMatch[0].length);
  }
  const ports = /^(.*):(\d{1,5}):(\d{1,5})$/.exec(address);
  if (!ports) return undefined;
  const host = ports[1]!.replace(/^\[(.*)\]$/, '$1');
  const client = clientPart === undefined || clientPart === '' ? undefined : hostPort(clientPart);
  return {
    id,
    host,
    quorumPort: Number(ports[2]),
    electionPort: Number(ports[3]),
    role,
    clientHost: client === undefined ? undefined : (client.host ?? '0.0.0.0'),
    clientPort: client?.port,
  };
}

/** Parses /zookeeper/config's data; lines it does not know are left out. */
export function parseEnsembleConfig(data: Buffer | string): EnsembleConfig {
  const raw = typeof data === 'string' ? data : data.toString('utf8');
  const members: EnsembleMember[] = [];
  let versionHex: string | undefined;
  for (const line of raw.split('\n')) {
    const text = line.trim();
    const server = SERVER_LINE.exec(text);
    if (server) {
      const member = parseMember(Number(server[1]), server[2]!);
      if (member) members.push(member);
    } else if (text.startsWith('version=')) {
      versionHex = text.slice('version='.length).trim();
    }
  }
  const version =
    versionHex !== undefined && /^[0-9A-Fa-f]+$/.test(versionHex)
      ? BigInt(`0x${versionHex}`)
      : undefined;
  return { members, version, versionHex, raw };
}

/** A wildcard a server listens on: not an address a client can connect to. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '0:0:0:0:0:0:0:0';
}

/**
 * The client addresses of the configuration's members (observers too: they serve clients),
 * in line order. A wildcard client host is replaced by the member's quorum host. Members
 * without a client address are left out.
 */
export function clientServersOf(config: EnsembleConfig): ServerAddress[] {
  const servers: ServerAddress[] = [];
  for (const member of config.members) {
    if (member.clientPort === undefined || member.clientHost === undefined) continue;
    const host = isWildcard(member.clientHost) ? member.host : member.clientHost;
    servers.push({ host, port: member.clientPort });
  }
  return servers;
}

/**
 * A member as a `server.<id>=` line's value would name it, e.g.
 * `server.4=127.0.0.1:2888:3888:participant;127.0.0.1:2181`: what reconfig's `joining` takes.
 */
export function formatEnsembleMember(member: EnsembleMember): string {
  const bracket = (host: string): string => (host.includes(':') ? `[${host}]` : host);
  const server = `${bracket(member.host)}:${member.quorumPort}:${member.electionPort}:${member.role}`;
  const client =
    member.clientPort === undefined
      ? ''
      : `;${bracket(member.clientHost ?? '0.0.0.0')}:${member.clientPort}`;
  return `server.${member.id}=${server}${client}`;
}

/** `host:port` (IPv6 in brackets), as in a connect string. */
export function formatServer({ host, port }: ServerAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

// The connect string ZooKeeper's clients take: `host[:port][,host[:port]...][/chroot]`. Parsed
// and checked here, once, so a mistake is an InvalidArgumentError at createFramework instead of
// an assertion inside the wire client at the first operation.
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { validatePath } from './validate-path.js';

/** ZooKeeper's client port, the default when a host names none (as its own clients do). */
export const DEFAULT_CLIENT_PORT = 2181;

/** One server of the ensemble. */
export interface ServerAddress {
  /** A host name, an IPv4 address, or an IPv6 address without its brackets. */
  readonly host: string;
  readonly port: number;
}

/** A checked connect string. */
export interface ParsedConnectString {
  readonly servers: readonly ServerAddress[];
  /** The chroot every path lives under, e.g. '/app'; undefined for none (or '/'). */
  readonly chroot: string | undefined;
}

const IPV6_HOST = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/;
/** Names may hold '_' (ZooKeeper resolves whatever the resolver does). */
const NAMED_HOST = /^([A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

function parseServer(entry: string): ServerAddress {
  const match = IPV6_HOST.exec(entry) ?? NAMED_HOST.exec(entry);
  const port = match?.[2] === undefined ? DEFAULT_CLIENT_PORT : Number(match[2]);
  if (!match || port < 1 || port > 65535) {
    throw new InvalidArgumentError(
      `connectString: '${entry}' is not host[:port] (expected e.g. '10.0.0.1:2181,zk2:2181,[::1]:2181/chroot')`,
    );
  }
  return { host: match[1]!, port };
}

/** Parses and checks a connect string; throws InvalidArgumentError naming what is wrong. */
export function parseConnectString(connectString: unknown): ParsedConnectString {
  if (typeof connectString !== 'string' || connectString.trim() === '') {
    throw new InvalidArgumentError(
      `connectString must be a non-empty string like '127.0.0.1:2181', got ${describeValue(connectString)}`,
    );
  }
  const slash = connectString.indexOf('/');
  const hosts = slash === -1 ? connectString : connectString.slice(0, slash);
  const servers = hosts.split(',').map((entry) => parseServer(entry.trim()));
  if (slash === -1) return { servers, chroot: undefined };
  const chroot = connectString.slice(slash);
  if (chroot === '/') return { servers, chroot: undefined };
  try {
    validatePath(chroot);
  } catch (error) {
    throw new InvalidArgumentError(
      `connectString: the chroot '${chroot}' is not a valid path: ${(error as { detail?: string }).detail ?? String(error)}`,
    );
  }
  return { servers, chroot };
}

/** The chroot of a (valid) connect string, '' for none. */
export function chrootOf(connectString: string): string {
  return parseConnectString(connectString).chroot ?? '';
}

export interface CliArgs {
  readonly connect: string | undefined;
  readonly scenarios: readonly string[];
  readonly quick: boolean;
  /** Clients connect over TLS to a throwaway server's secure port (no --connect). */
  readonly tls: boolean;
  readonly list: boolean;
  readonly help: boolean;
}

export const USAGE =
  'usage: npm run bench -- [--connect HOST:PORT | --tls] [--scenario NAME[,NAME...]] [--quick] [--list]\n' +
  '  NAME matches a scenario exactly or as a dotted prefix ("mutex" runs all mutex.*)\n' +
  '  without --connect a throwaway ZooKeeper (TestingServer) is started; --tls gives it a\n' +
  '  secure client port (certificates made at start) and every client connects over TLS';

export class UsageError extends Error {}

/** Parses the peer-bench flags; unknown flags and missing values are usage errors. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let connect: string | undefined;
  const scenarios: string[] = [];
  let quick = false;
  let tls = false;
  let list = false;
  let help = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      i += 1;
      return next;
    };
    switch (arg) {
      case '--connect':
        connect = value();
        break;
      case '--scenario':
        scenarios.push(...value().split(',').filter(Boolean));
        break;
      case '--quick':
        quick = true;
        break;
      case '--tls':
        tls = true;
        break;
      case '--list':
        list = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        throw new UsageError(`unknown argument: ${arg}`);
    }
  }
  if (tls && connect !== undefined)
    throw new UsageError('--tls starts its own server: no --connect');
  return { connect, scenarios, quick, tls, list, help };
}

export interface CliArgs {
  readonly connect: string | undefined;
  readonly scenarios: readonly string[];
  readonly quick: boolean;
  readonly list: boolean;
  readonly help: boolean;
}

export const USAGE =
  'usage: npm run bench -- [--connect HOST:PORT] [--scenario NAME[,NAME...]] [--quick] [--list]\n' +
  '  NAME matches a scenario exactly or as a dotted prefix ("mutex" runs all mutex.*)\n' +
  '  without --connect a throwaway ZooKeeper (TestingServer) is started';

export class UsageError extends Error {}

/** Parses the peer-bench flags; unknown flags and missing values are usage errors. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let connect: string | undefined;
  const scenarios: string[] = [];
  let quick = false;
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
  return { connect, scenarios, quick, list, help };
}

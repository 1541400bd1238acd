import type { Buffer } from 'node:buffer';
import type { FrameworkClient } from '../client/framework-client.js';
import { decompressData } from '../client/data-compression.js';
import { booleanOption } from '../checks/option-checks.js';

/**
 * For a recipe that reads node data with `compressed: false` and decompresses it afterwards
 * (a cache that must confirm its read's watch first, whatever the data holds): the function
 * that decompresses as `getData` would, or undefined when nothing is to be decompressed. That
 * is when `compressed` (the recipe's option, named `optionName` in the InvalidArgumentError a
 * non-boolean gets) is false, or undefined on a client without `compressionEnabled`.
 * Data the provider cannot read throws DataInconsistencyError.
 */
export function dataDecompressor(
  client: FrameworkClient,
  compressed: unknown,
  optionName = 'compressed',
): ((path: string, data: Buffer) => Buffer) | undefined {
  if (!booleanOption(optionName, compressed, client.compressionEnabled)) return undefined;
  const provider = client.compressionProvider;
  return (path, data) => decompressData(provider, path, path, data);
}

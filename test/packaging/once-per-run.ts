// Work that one file of a test run does for every file of the run (packing the packages,
// installing them): the first file to make the directory does it, the others wait for its
// result. A file `result.json` (written whole, by a rename) says it is done, a file
// `failed.txt` that it failed.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@zkrecipes/testing';

/** Makes `dir`: true, or false when it exists (another file of the run got there first). */
function claim(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * `make(dir)`'s result: made here if this file creates `dir`, else read from what the file
 * that did wrote there (waiting up to `waitMs` for it). `what` names the work in a timeout.
 */
export async function oncePerRun<T>(
  dir: string,
  what: string,
  waitMs: number,
  make: (dir: string) => Promise<T>,
): Promise<T> {
  const result = join(dir, 'result.json');
  const failed = join(dir, 'failed.txt');
  if (!claim(dir)) {
    await waitFor(() => existsSync(result) || existsSync(failed), {
      timeoutMs: waitMs,
      intervalMs: 200,
      message: `${what}, which another test file makes in ${dir}`,
    });
    if (existsSync(failed)) throw new Error(`${what} failed: ${readFileSync(failed, 'utf8')}`);
    return JSON.parse(readFileSync(result, 'utf8')) as T;
  }
  try {
    const made = await make(dir);
    writeFileSync(`${result}.tmp`, JSON.stringify(made));
    renameSync(`${result}.tmp`, result); // whole or absent for the waiting files
    return made;
  } catch (error) {
    writeFileSync(failed, String(error));
    throw error;
  }
}

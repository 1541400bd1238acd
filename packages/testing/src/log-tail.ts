// Error messages about a JVM quote the end of its output: that is where the reason is.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** At most this much of the file is read, however long the log has grown. */
const LOG_TAIL_BYTES = 64 * 1024;

/**
 * The last `lines` lines of `file`, counting only what was written after byte `from` (a
 * restarted server appends to the same log; only the current run's output matters).
 */
export function logTail(file: string, from: number, lines: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '(no log)';
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.max(0, Math.min(size - from, LOG_TAIL_BYTES));
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8').trimEnd();
    return text === '' ? '(log is empty)' : text.split('\n').slice(-lines).join('\n');
  } finally {
    closeSync(fd);
  }
}

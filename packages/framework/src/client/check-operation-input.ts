// The checks every operation runs on its options before anything is sent, kept together
// because they share one message shape: `<name> must be <rule>; got <value>`. Paths, data,
// versions and timeouts have their validators in src/paths/.
import { Buffer } from 'node:buffer';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { validateData } from '../paths/validate-data.js';
import { checkFunction } from '../checks/option-checks.js';
import { CreateMode } from '../zk/zookeeper-types.js';
import type { Acl, Watcher } from '../zk/zookeeper-types.js';

const CREATE_MODES: ReadonlySet<string> = new Set(Object.values(CreateMode));

/** The longest time to live ZooKeeper accepts (EphemeralType.MAX_TTL: 40 bits). */
export const MAX_TTL_MS = 0xff_ffff_ffff;

/** True for the modes that take a time to live. */
export function isTtlMode(mode: CreateMode): boolean {
  return mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL';
}

/**
 * Asserts `ttlMs` fits `mode`: a whole number from 1 to {@link MAX_TTL_MS} with a TTL mode,
 * absent with any other (the server would answer BAD_ARGUMENTS).
 */
export function checkTtl(mode: CreateMode, ttlMs: unknown, path?: string): void {
  if (!isTtlMode(mode)) {
    if (ttlMs === undefined) return;
    throw new InvalidArgumentError(
      `ttlMs is only for PERSISTENT_WITH_TTL and PERSISTENT_SEQUENTIAL_WITH_TTL; got ttlMs ${describeValue(ttlMs)} with mode ${mode}`,
      { path },
    );
  }
  if (typeof ttlMs === 'number' && Number.isInteger(ttlMs) && ttlMs >= 1 && ttlMs <= MAX_TTL_MS) {
    return;
  }
  throw new InvalidArgumentError(
    `mode ${mode} needs ttlMs, a whole number from 1 to ${MAX_TTL_MS} (0xFFFFFFFFFF); got ${describeValue(ttlMs)}`,
    { path },
  );
}

/** Asserts `mode` is one of {@link CreateMode}'s values; undefined means the default. */
export function checkCreateMode(mode: unknown, path?: string): asserts mode is CreateMode {
  if (typeof mode === 'string' && CREATE_MODES.has(mode)) return;
  throw new InvalidArgumentError(
    `mode must be one of ${[...CREATE_MODES].join(', ')}; got ${describeValue(mode)}`,
    { path },
  );
}

/** Asserts an optional flag is a boolean. */
export function checkFlag(name: string, value: unknown): asserts value is boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidArgumentError(`${name} must be true or false; got ${describeValue(value)}`);
  }
}

/**
 * Asserts `acl` is a non-empty list of `{ perms, id: { scheme, id } }` with `perms` a bit set
 * of Perms (0-31). ZooKeeper rejects an empty list with INVALID_ACL; we say so before sending.
 */
export function checkAcl(acl: unknown, path?: string): asserts acl is readonly Acl[] {
  const fail = (detail: string): never => {
    throw new InvalidArgumentError(detail, { path });
  };
  if (!Array.isArray(acl)) return fail(`acl must be an array; got ${describeValue(acl)}`);
  if (acl.length === 0) fail('acl must not be empty (ZooKeeper rejects it with INVALID_ACL)');
  acl.forEach((entry: unknown, i) => {
    const { perms, id } = (entry ?? {}) as {
      perms?: unknown;
      id?: { scheme?: unknown; id?: unknown };
    };
    if (typeof perms !== 'number' || !Number.isInteger(perms) || perms < 0 || perms > 31) {
      fail(
        `acl[${i}].perms must be a whole number from 0 to 31 (Perms); got ${describeValue(perms)}`,
      );
    }
    if (typeof id?.scheme !== 'string' || typeof id.id !== 'string') {
      fail(`acl[${i}].id must be { scheme: string, id: string }`);
    }
  });
}

/** Asserts `watch` is a function when given. */
export function checkWatcher(watch: unknown): asserts watch is Watcher | undefined {
  if (watch !== undefined) checkFunction('watch', watch);
}

/** Asserts `signal` is an AbortSignal when given. */
export function checkSignal(signal: unknown): asserts signal is AbortSignal | undefined {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError(`signal must be an AbortSignal; got ${describeValue(signal)}`);
  }
}

/**
 * Validates node data (type and size, see `validateData`) and returns it as a Buffer, as the
 * wire client needs. `undefined` is allowed only where `optional` says so, and becomes empty.
 */
export function toNodeData(data: unknown, path: string, optional: boolean): Buffer {
  if (data === undefined && !optional) {
    throw new InvalidArgumentError('data must be a Buffer or Uint8Array; got undefined', { path });
  }
  validateData(data, { path });
  if (data === undefined) return Buffer.alloc(0);
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

import { checkOptionsObject } from '../checks/option-checks.js';
import type { AclProvider } from './client-context.js';
import { resolveAcl } from './acl-provider.js';
import type { NamespaceMapper } from './namespace-mapper.js';
import type { TransactionOp, TransactionResult } from './transaction-op.js';
import { checkAcl, checkCreateMode, checkTtl } from './check-operation-input.js';
import { compressorFor, toSentData, type DataCompression } from './data-compression.js';
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { isInvalidArgument } from '../errors/predicates.js';
import { describeValue } from '../errors/describe-value.js';
import { validateVersion } from '../checks/validate-number.js';
import type { WireTransactionOp, WireTransactionResult } from '../zk/zookeeper-types.js';

/**
 * Validates every op of a transaction and turns them into wire ops (server paths, Buffers,
 * resolved ACLs). Nothing is sent when any op is bad: the error names the op's index and type,
 * e.g. `INVALID_ARGUMENT: /a/ - op 1 (create): path must not end with "/"`.
 */
export function toWireTransaction(
  ops: unknown,
  mapper: NamespaceMapper,
  aclProvider: AclProvider,
  compression: DataCompression,
): WireTransactionOp[] {
  if (!Array.isArray(ops)) {
    throw new InvalidArgumentError(`transaction ops must be an array; got ${describeValue(ops)}`);
  }
  return ops.map((candidate: unknown, index) => {
    const label = `op ${index} (${describeOpType(candidate)})`;
    try {
      return toWireOp(candidate, mapper, aclProvider, compression);
    } catch (error) {
      if (!isInvalidArgument(error)) throw error;
      const { detail, path } = error as InvalidArgumentError;
      throw new InvalidArgumentError(`${label}: ${detail ?? 'invalid'}`, { path, cause: error });
    }
  });
}

function describeOpType(candidate: unknown): string {
  const type = (candidate as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : 'unknown';
}

function toWireOp(
  candidate: unknown,
  mapper: NamespaceMapper,
  aclProvider: AclProvider,
  compression: DataCompression,
): WireTransactionOp {
  checkOptionsObject(candidate, 'a transaction op');
  if (candidate === undefined) {
    throw new InvalidArgumentError('a transaction op must be built with op.create/delete/...');
  }
  const raw = candidate as TransactionOp & Record<string, unknown>;
  switch (raw.type) {
    case 'create': {
      for (const unsupported of ['protection', 'createParents', 'orSetData']) {
        if (raw[unsupported] !== undefined) {
          throw new InvalidArgumentError(
            `${unsupported} is not available inside a transaction (a multi is all or nothing)`,
            { path: typeof raw.path === 'string' ? raw.path : undefined },
          );
        }
      }
      const mode = raw.mode ?? 'PERSISTENT';
      checkCreateMode(mode, raw.path);
      checkTtl(mode, raw.ttlMs, raw.path);
      const path = mapper.toServer(raw.path, {
        sequential: mode.endsWith('SEQUENTIAL') || mode.endsWith('SEQUENTIAL_WITH_TTL'),
        allowRoot: false,
      });
      if (raw.acl !== undefined) checkAcl(raw.acl, raw.path);
      const data = toSentData(raw.data, raw.path, true, compressorFor(compression, raw.compressed));
      const acl = resolveAcl(aclProvider, path, raw.acl);
      return { type: 'create', path, data, acl, mode, ttlMs: raw.ttlMs };
    }
    case 'delete': {
      const path = mapper.toServer(raw.path, { allowRoot: false });
      validateVersion(raw.version);
      return { type: 'delete', path, version: raw.version ?? -1 };
    }
    case 'setData': {
      const path = mapper.toServer(raw.path);
      validateVersion(raw.version);
      const compressor = compressorFor(compression, raw.compressed);
      const data = toSentData(raw.data, raw.path, false, compressor);
      return { type: 'setData', path, data, version: raw.version ?? -1 };
    }
    case 'check': {
      const path = mapper.toServer(raw.path);
      validateVersion(raw.version);
      return { type: 'check', path, version: raw.version ?? -1 };
    }
    default:
      throw new InvalidArgumentError(
        `op type must be create, delete, setData or check; got ${describeValue((candidate as { type?: unknown }).type)}`,
      );
  }
}

/** The caller's view of the results: paths back out of the namespace. */
export function fromWireResults(
  results: readonly WireTransactionResult[],
  wireOps: readonly WireTransactionOp[],
  mapper: NamespaceMapper,
): TransactionResult[] {
  return results.map((result, index) => {
    const forPath = mapper.toClient(wireOps[index]?.path ?? '/');
    switch (result.type) {
      case 'create':
        return { type: 'create', forPath, path: mapper.toClient(result.path) };
      case 'setData':
        return { type: 'setData', forPath, path: forPath, stat: result.stat };
      case 'delete':
        return { type: 'delete', forPath, path: forPath };
      case 'check':
        return { type: 'check', forPath, path: forPath };
    }
  });
}

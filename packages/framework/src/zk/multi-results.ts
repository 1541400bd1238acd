/**
 * A multi's reply, decoded by @zkrecipes/wire, in the framework's terms: the transaction's
 * results with paths as the client names them, or each op's error code when it failed.
 */
import { decodeStat, type MultiOpResult } from '@zkrecipes/wire';
import type { WireTransactionOp, WireTransactionResult } from './zookeeper-types.js';

/**
 * The transaction's results, paths as the client names them (`withoutChroot`), or each op's
 * error code (0 for the ops that would have succeeded) when the multi failed.
 */
export function toWireResults(
  results: readonly MultiOpResult[],
  ops: readonly WireTransactionOp[],
  withoutChroot: (path: string) => string,
): { results: WireTransactionResult[] } | { failed: number[] } {
  if (results.some((r) => r.type === 'error' && r.code !== 0)) {
    return { failed: results.map((r) => (r.type === 'error' ? r.code : 0)) };
  }
  return {
    results: results.map((result, i): WireTransactionResult => {
      if (result.type === 'create') return { type: 'create', path: withoutChroot(result.path) };
      if (result.type === 'setData') return { type: 'setData', stat: decodeStat(result.stat) };
      return ops[i]?.type === 'delete' ? { type: 'delete' } : { type: 'check' };
    }),
  };
}

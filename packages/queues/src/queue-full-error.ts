/** Why a put was refused: the queue's own bound, or the hard limit that protects the ensemble. */
export type QueueFullReason = 'maxItems' | 'hardMaxItems';

/**
 * A put found the queue full: it reached `maxItems` and no room appeared within `timeoutMs`,
 * or it reached `hardMaxItems`, which fails at once. Nothing was written.
 */
export class QueueFullError extends Error {
  /** The error class name, for logs and `instanceof`-free checks. */
  override name = 'QueueFullError';
  /** Always `'QUEUE_FULL'`: a stable code to branch on across package copies. */
  readonly code = 'QUEUE_FULL';
  /** The queue's path. */
  readonly path: string;
  /** Which bound was hit. */
  readonly reason: QueueFullReason;
  /** The bound's value. */
  readonly limit: number;
  /** The number of nodes the queue held when last counted. */
  readonly count: number;

  constructor(path: string, reason: QueueFullReason, limit: number, count: number, detail: string) {
    super(
      `queue ${path} is full: ${count} node${count === 1 ? '' : 's'}, ${reason} ${limit}; ${detail}`,
    );
    this.path = path;
    this.reason = reason;
    this.limit = limit;
    this.count = count;
  }
}

/**
 * Compresses node data before it is written and decompresses it after it is read (Curator's
 * `CompressionProvider`). Both run synchronously on the calling thread, inside the operation
 * that asked for them; a throw ends that operation before anything is sent (compress) or with a
 * DataInconsistencyError (decompress). `path` is the node's path as the caller gave it (in the
 * client's namespace), for a provider that compresses some paths differently; the built-in
 * {@link GzipCompressionProvider} ignores it.
 */
export interface CompressionProvider {
  /** The bytes to store for `data`. */
  compress(path: string, data: Uint8Array): Uint8Array;
  /** The data that `compressed` was made from; throws when it is not in this provider's format. */
  decompress(path: string, compressed: Uint8Array): Uint8Array;
}

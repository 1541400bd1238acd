// pako 2 ships no types; the gzip provider uses its raw deflate alone.
declare module 'pako' {
  /** Options of {@link deflateRaw} that the gzip provider sets. */
  interface DeflateOptions {
    level?: number;
    windowBits?: number;
    memLevel?: number;
    strategy?: number;
    /** zlib's own hash (true) instead of the one Node's bundled zlib uses. */
    legacyHash?: boolean;
  }
  export function deflateRaw(data: Uint8Array, options?: DeflateOptions): Uint8Array;
}

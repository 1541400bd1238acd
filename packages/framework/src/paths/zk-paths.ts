// Path arithmetic after Curator's ZKPaths and NamespaceImpl: joining, splitting off the parent
// or the node name, and mapping between a namespace's view of the tree and the real paths.
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';
import { describeValue } from '../errors/describe-value.js';
import { validatePath } from './validate-path.js';

// Curator's makePath trims one leading and one trailing "/" from each piece.
function trimSlashes(piece: string): string {
  const start = piece.startsWith('/') ? 1 : 0;
  const end = piece.length > start && piece.endsWith('/') ? piece.length - 1 : piece.length;
  return piece.slice(start, end);
}

/** The parent of a server path and the node name to create under it. */
export function splitPath(path: string): { parent: string; name: string } {
  const i = path.lastIndexOf('/');
  return { parent: i === 0 ? '/' : path.slice(0, i), name: path.slice(i + 1) };
}

/**
 * Joins path pieces the way Curator's `ZKPaths.makePath` does: a leading "/" is added when
 * missing, one "/" at either end of each piece is dropped, and empty pieces (or "/") vanish.
 * `joinPath('/app', 'locks')` and `joinPath('app/', '/locks/')` are both `'/app/locks'`;
 * `joinPath('', '')` is `'/'`. The result is not validated; operations validate their path.
 */
export function joinPath(parent: string, child: string, ...more: string[]): string {
  const pieces = [parent, child, ...more].map(trimSlashes).filter((piece) => piece !== '');
  return `/${pieces.join('/')}`;
}

/**
 * The parent of a valid path: `parentOf('/a/b')` is `'/a'`, `parentOf('/a')` is `'/'`, and the
 * root has none (`undefined`). Throws InvalidArgumentError for an invalid path.
 */
export function parentOf(path: string): string | undefined {
  validatePath(path);
  if (path === '/') return undefined;
  const i = path.lastIndexOf('/');
  return i === 0 ? '/' : path.slice(0, i);
}

/**
 * The last node name of a valid path: `nodeName('/a/b')` is `'b'`; the root's is `''`
 * (Curator's `getNodeFromPath`). Throws InvalidArgumentError for an invalid path.
 */
export function nodeName(path: string): string {
  validatePath(path);
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Asserts `namespace` can prefix paths: `undefined` or `''` (no namespace), or a relative path
 * such as `'app'` or `'app/v2'` that is valid once a "/" is put in front (Curator's rule).
 */
export function validateNamespace(namespace: unknown): asserts namespace is string | undefined {
  if (namespace === undefined || namespace === '') return;
  if (typeof namespace !== 'string') {
    throw new InvalidArgumentError(`namespace must be a string; got ${describeValue(namespace)}`);
  }
  if (namespace.startsWith('/')) {
    throw new InvalidArgumentError(
      `namespace ${JSON.stringify(namespace)} must not start with "/" (write 'app', not '/app')`,
    );
  }
  try {
    validatePath(`/${namespace}`, { allowRoot: false });
  } catch (error) {
    const reason = error instanceof InvalidArgumentError ? error.detail : String(error);
    throw new InvalidArgumentError(
      `namespace ${JSON.stringify(namespace)} is not valid as "/${namespace}": ${reason}`,
      { cause: error },
    );
  }
}

/** Options of {@link pathWithNamespace}. */
export interface PathWithNamespaceOptions {
  /**
   * The path is the prefix of a sequential create, so "/" means "a sequential node right under
   * the namespace" and keeps its slash: ('app', '/') gives '/app/'. Default: false.
   */
  sequential?: boolean | undefined;
}

/**
 * The real path for a path seen through a namespace (Curator's `fixForNamespace`): with
 * namespace `'app'`, `'/a'` is `'/app/a'` and the root `'/'` is `'/app'`. Without a namespace
 * (`undefined` or `''`) the path is returned as is. Inputs are assumed valid (see
 * {@link validatePath} and {@link validateNamespace}); unlike Curator, a trailing "/" of a
 * sequential prefix is kept.
 */
export function pathWithNamespace(
  namespace: string | undefined,
  path: string,
  options: PathWithNamespaceOptions = {},
): string {
  if (namespace === undefined || namespace === '') return path;
  const root = `/${namespace}`;
  if (path === '/') return options.sequential ? `${root}/` : root;
  return `${root}${path}`;
}

/**
 * The inverse of {@link pathWithNamespace}, for paths the server reports (watch events, created
 * sequential names): with namespace `'app'`, `'/app/a'` is `'/a'` and `'/app'` is `'/'`. A path
 * outside the namespace comes back unchanged, as in Curator; unlike Curator, `'/application'`
 * is outside namespace `'app'` (whole node names are compared, not string prefixes).
 */
export function pathWithoutNamespace(namespace: string | undefined, fullPath: string): string {
  if (namespace === undefined || namespace === '') return fullPath;
  const root = `/${namespace}`;
  if (fullPath === root) return '/';
  return fullPath.startsWith(`${root}/`) ? fullPath.slice(root.length) : fullPath;
}

import { pathWithNamespace, pathWithoutNamespace, validateNamespace } from '../paths/zk-paths.js';
import { validatePath } from '../paths/validate-path.js';

/** Options of {@link NamespaceMapper.toServer}. */
export interface ToServerOptions {
  /** The path is the prefix of a sequential create ("/a/" is then valid). Default: false. */
  sequential?: boolean | undefined;
  /** Whether the (namespace's) root "/" is acceptable. Default: true. */
  allowRoot?: boolean | undefined;
}

/**
 * The one place where a client's paths become server paths and back (Curator's
 * `NamespaceImpl`). Every operation validates and maps its input through {@link toServer} and
 * every path the server reports (created names, watch events, transaction results, error
 * paths) goes back through {@link toClient}, so no other code concatenates namespaces.
 */
export class NamespaceMapper {
  /** The namespace without a leading "/", or undefined for none. */
  readonly namespace: string | undefined;

  /** Throws InvalidArgumentError for a namespace that is not a valid relative path. */
  constructor(namespace: string | undefined) {
    validateNamespace(namespace);
    // '' means "no namespace", as in Curator; keep one representation of it.
    this.namespace = namespace === '' ? undefined : namespace;
  }

  /** The server path of the namespace's root ("/app"), or undefined without a namespace. */
  get rootPath(): string | undefined {
    return this.namespace === undefined ? undefined : `/${this.namespace}`;
  }

  /**
   * Validates a client path (throwing InvalidArgumentError that names the path as the caller
   * wrote it) and returns the server path.
   */
  toServer(path: unknown, options: ToServerOptions = {}): string {
    validatePath(path, { sequential: options.sequential, allowRoot: options.allowRoot });
    return pathWithNamespace(this.namespace, path, { sequential: options.sequential });
  }

  /** The client's view of a server path; paths outside the namespace come back unchanged. */
  toClient(serverPath: string): string {
    return pathWithoutNamespace(this.namespace, serverPath);
  }
}

import { checkOptionsObject } from '../checks/option-checks.js';
import { randomUUID } from 'node:crypto';
import { resolveAcl } from './acl-provider.js';
import type { AclProvider } from './client-context.js';
import { deleteNode } from './delete-node.js';
import { ensurePath } from './ensure-path.js';
import type { NamespaceMapper } from './namespace-mapper.js';
import type { CreateOptions } from './operation-options.js';
import {
  checkAcl,
  checkCreateMode,
  checkFlag,
  checkTtl,
  checkSignal,
} from './check-operation-input.js';
import { compressorFor, toSentData, type DataCompression } from './data-compression.js';
import { IdempotentWrite } from './idempotent-write.js';
import { createdPathAfterLostReply } from './lost-reply-results.js';
import { checkOrSetData, setExistingData } from './or-set-data.js';
import type { WriteAmbiguity } from './write-ambiguity.js';
import { OutcomeUnknownError } from '../errors/outcome-unknown-error.js';
import { isNodeExists, isNoNode, isOutcomeUnknown } from '../errors/predicates.js';
import { InvalidArgumentError, NoNodeError } from '../errors/zookeeper-error-classes.js';
import type { Logger } from '../logging/logger.js';
import { findProtectedNode, protectedNameOfOwnId } from '../paths/protected-name.js';
import { validatePath } from '../paths/validate-path.js';
import { splitPath } from '../paths/zk-paths.js';
import type { Acl, CreateMode, Stat } from '../zk/zookeeper-types.js';
import type { ZooKeeperOperations } from '../zk/zookeeper-operations.js';

/** A validated create, on server paths. */
export interface CreateRequest {
  /** The server path as the caller meant it (before protection renames the node). */
  readonly path: string;
  readonly data: Buffer;
  readonly acl: readonly Acl[];
  readonly mode: CreateMode;
  /** The time to live of a TTL mode; undefined otherwise. */
  readonly ttlMs: number | undefined;
  readonly createParents: boolean;
  /** What missing parents are made as (createParents). */
  readonly parentMode: 'PERSISTENT' | 'CONTAINER';
  /**
   * With orSetData, the version an existing node must have for its data to be set (-1: any);
   * undefined without orSetData.
   */
  readonly orSetDataVersion: number | undefined;
  /** The protected-mode UUID, one per create call; undefined when not protected. */
  readonly protectedId: string | undefined;
  /**
   * The path the create sends: `path`, or with protection its node name as `_c_<uuid>-<name>`,
   * exactly Curator's bytes, so Curator and zkrecipes recognise each other's nodes.
   */
  readonly sendPath: string;
  /** Also learn the node's Stat (create2). */
  readonly withStat: boolean;
  /** The caller's signal: a request still waiting for a connection is dropped when it aborts. */
  readonly signal: AbortSignal | undefined;
  /** Exact answers after a lost reply through a witness (unless protection already gives them). */
  readonly idempotent: boolean;
}

/** What a create attempt made: the server path and, when asked for, the node's Stat. */
export interface CreatedNode {
  readonly path: string;
  readonly stat: Stat | undefined;
}

/** What a create attempt needs from the client. */
export interface CreateDeps {
  readonly ops: ZooKeeperOperations;
  /** The ACL for a parent made by createParents (the provider's, never the leaf's). */
  readonly parentAcl: (path: string) => readonly Acl[];
  readonly currentSessionId: () => bigint | undefined;
  readonly logger: Logger;
  /**
   * How the call's attempts learn whether an earlier one was applied: through a witness
   * (`idempotent`) or, by default, by the rules for a create that meets NODE_EXISTS.
   */
  readonly write: IdempotentWrite | WriteAmbiguity;
}

function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** `path` with its node name in protected form for `uuid` (our own randomUUID()). */
function protectedPath(path: string, uuid: string): string {
  const { parent, name } = splitPath(path);
  return childPath(parent, protectedNameOfOwnId(uuid, name));
}

/**
 * Validates a create's input (throwing InvalidArgumentError before anything is sent) and
 * resolves everything the attempts need: server path, Buffer, ACL, and the protected-mode id.
 */
export function prepareCreate(
  path: string,
  options: CreateOptions,
  mapper: NamespaceMapper,
  settings: {
    readonly aclProvider: AclProvider;
    readonly useContainerParents: boolean;
    readonly compression: DataCompression;
  },
): CreateRequest {
  const { aclProvider, useContainerParents } = settings;
  checkOptionsObject(options);
  const { mode = 'PERSISTENT', data, acl } = options;
  const pathForErrors = typeof path === 'string' ? path : undefined;
  checkCreateMode(mode, pathForErrors);
  checkTtl(mode, options.ttlMs, pathForErrors);
  const sequential = mode.endsWith('SEQUENTIAL') || mode.endsWith('SEQUENTIAL_WITH_TTL');
  const serverPath = mapper.toServer(path, { sequential, allowRoot: false });
  checkFlag('createParents', options.createParents);
  checkFlag('containerParents', options.containerParents);
  checkFlag('protection', options.protection);
  if (options.protection === true && mode === 'CONTAINER') {
    // A protected name exists to find a node whose create reply was lost; a container is
    // reaped by the server on its own schedule, so there is nothing to find it for.
    throw new InvalidArgumentError(
      'protection is not available with mode CONTAINER (a container is not owned by a session or a caller)',
      { path },
    );
  }
  const orSetDataVersion = checkOrSetData(options.orSetData);
  checkFlag('stat', options.stat);
  checkFlag('idempotent', options.idempotent);
  checkSignal(options.signal);
  const compressor = compressorFor(settings.compression, options.compressed);
  if (acl !== undefined) checkAcl(acl, path);
  // One id per call, kept across retries: it is how a retry recognises the first attempt's node.
  const protectedId = options.protection === true ? randomUUID() : undefined;
  const request: CreateRequest = {
    path: serverPath,
    data: toSentData(data, path, true, compressor),
    acl: resolveAcl(aclProvider, serverPath, acl),
    mode,
    ttlMs: options.ttlMs,
    createParents: options.createParents ?? false,
    parentMode: (options.containerParents ?? useContainerParents) ? 'CONTAINER' : 'PERSISTENT',
    orSetDataVersion,
    protectedId,
    sendPath: protectedId === undefined ? serverPath : protectedPath(serverPath, protectedId),
    withStat: options.stat === true,
    signal: options.signal,
    // A protected create finds its own node by its name already.
    idempotent: options.idempotent === true && protectedId === undefined,
  };
  // The protected name is 40 characters longer; it must still be a valid path.
  if (protectedId !== undefined) validatePath(request.sendPath, { sequential });
  return request;
}

/**
 * One attempt of a create (Curator's `CreateBuilderImpl.pathInForeground`), run by the
 * client's retry loop. Returns the server path created (or, with orSetData, updated).
 *
 * Protected mode: a retryable failure (CONNECTION_LOSS, a deadline) leaves the outcome
 * unknown; the server may have created the node and only the reply was lost. So every attempt
 * after the first lists the parent first and returns the node carrying our UUID if there is
 * one, instead of creating a second node (which, for a lock, would be a second place in line
 * that nobody owns). An ephemeral found there that belongs to another session (one that died
 * or was replaced between attempts) is deleted and created again: it would vanish when that
 * session expires, taking our place with it.
 */
export async function createAttempt(
  deps: CreateDeps,
  request: CreateRequest,
  attempt: number,
): Promise<CreatedNode> {
  if (attempt > 0 && request.protectedId !== undefined) {
    const found = await findOurProtectedNode(deps, request, request.protectedId);
    if (found !== undefined) return found;
  }
  const path = request.sendPath;
  try {
    try {
      return await createOnce(deps, request, path);
    } catch (error) {
      if (!request.createParents || !isNoNode(error)) throw error;
      return await createWithParents(deps, request, path);
    }
  } catch (error) {
    if (request.orSetDataVersion === undefined) throw error;
    if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
    // Curator's orSetData: the node is there, so make its data ours.
    const stat = await setExistingData(deps, request, path, request.orSetDataVersion);
    return { path, stat: request.withStat ? stat : undefined };
  }
}

/** The create met NO_NODE (createParents): make the missing parents and create again. */
async function createWithParents(
  deps: CreateDeps,
  request: CreateRequest,
  path: string,
): Promise<CreatedNode> {
  const { parent } = splitPath(path);
  for (let made = 1; ; made++) {
    await ensurePath(deps.ops, parent, deps.parentAcl, request.signal, request.parentMode);
    try {
      return await createOnce(deps, request, path);
    } catch (error) {
      // A container parent can be reaped by the server between our ensurePath and our create
      // (its last child went and the container check ran): make it again, a few times.
      if (!isNoNode(error) || made >= PARENT_ATTEMPTS) throw error;
    }
  }
}

/** How often createParents makes missing parents for one create attempt. */
const PARENT_ATTEMPTS = 3;

/**
 * One create request. It is sent from this frame: every frame between a recipe's call and the
 * socket is one more on each request's stack (docs/benchmarks.md, request frames).
 */
async function createOnce(
  deps: CreateDeps,
  request: CreateRequest,
  path: string,
): Promise<CreatedNode> {
  const { write, ops } = deps;
  if (write instanceof IdempotentWrite) return createWithWitness(ops, write, request, path);
  const { data, acl, mode, signal, ttlMs } = request;
  try {
    if (request.withStat)
      return await write.attempt(ops.create2(path, data, acl, mode, signal, ttlMs));
    return {
      path: await write.attempt(ops.create(path, data, acl, mode, signal, ttlMs)),
      stat: undefined,
    };
  } catch (error) {
    // A retry after a lost reply that meets the node cannot tell whose create made it: another
    // creator's very same bytes, or another call of this session, look just like ours. Only a
    // protected name (found before this send) or `idempotent: true` answers exactly.
    if (!write.ambiguous || !isNodeExists(error) || request.protectedId !== undefined) throw error;
    throw new OutcomeUnknownError({ operation: 'create', path, answer: error });
  }
}

async function createWithWitness(
  ops: ZooKeeperOperations,
  write: IdempotentWrite,
  request: CreateRequest,
  path: string,
): Promise<CreatedNode> {
  const { data, acl, mode, signal, ttlMs } = request;
  const outcome = await write.attemptOne({ type: 'create', path, data, acl, mode, ttlMs }, signal);
  const created =
    outcome.applied === 'now'
      ? (outcome.results[0] as { path: string }).path
      : await createdPathAfterLostReply(ops, path, mode, outcome, signal);
  if (!request.withStat) return { path: created, stat: undefined };
  const stat = await ops.exists(created, undefined, signal);
  if (stat === null)
    throw new NoNodeError({ path: created, detail: 'deleted right after its create' });
  return { path: created, stat };
}

async function findOurProtectedNode(
  deps: CreateDeps,
  request: CreateRequest,
  protectedId: string,
): Promise<CreatedNode | undefined> {
  const { ops, logger } = deps;
  const { signal } = request;
  const { parent } = splitPath(request.path);
  let children: string[];
  try {
    ({ children } = await ops.getChildren(parent, undefined, signal));
  } catch (error) {
    // No parent, no node of ours: the create (with createParents) starts from scratch.
    if (isNoNode(error)) return undefined;
    throw error;
  }
  const name = findProtectedNode(children, protectedId);
  if (name === undefined) return undefined;
  const found = childPath(parent, name);
  const ephemeral = request.mode === 'EPHEMERAL' || request.mode === 'EPHEMERAL_SEQUENTIAL';
  if (!ephemeral && !request.withStat) return { path: found, stat: undefined };

  const stat = await ops.exists(found, undefined, signal);
  if (stat === null) return undefined;
  const ours = { path: found, stat: request.withStat ? stat : undefined };
  if (!ephemeral) return ours;
  const sessionId = deps.currentSessionId();
  if (stat.ephemeralOwner === sessionId) return ours;
  logger.info('protected create found its ephemeral node from an older session; recreating', {
    path: found,
    ephemeralOwner: `0x${stat.ephemeralOwner.toString(16)}`,
    sessionId: sessionId === undefined ? undefined : `0x${sessionId.toString(16)}`,
  });
  await deleteNode(ops, found, { version: -1, deleteChildren: false, quietly: true }, signal);
  return undefined;
}

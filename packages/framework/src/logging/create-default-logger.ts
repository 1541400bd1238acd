import { inspect } from 'node:util';
import type Winston from 'winston';
import type { Logform, Logger as WinstonLogger } from 'winston';
import type { Logger } from './logger.js';

/** The environment variable that sets the default logger's level. */
export const LOG_LEVEL_ENV = 'ZKRECIPES_LOG_LEVEL';

const DEFAULT_LEVEL = 'warn';
// winston's npm levels, most severe first. Ours, so that choosing and checking a level loads
// nothing: winston is loaded only once a line is to be written.
const SEVERITY: Readonly<Record<string, number>> = {
  error: 0,
  warn: 1,
  info: 2,
  http: 3,
  verbose: 4,
  debug: 5,
  silly: 6,
};
// `silent` is ours: nothing is written, winston is never loaded.
const LEVELS = new Set([...Object.keys(SEVERITY), 'silent']);
// The fields the compact format prints in fixed places rather than in the trailing meta.
const PLACED_FIELDS = new Set(['level', 'message', 'component', 'path']);
// When the line was logged: a line written once winston has loaded keeps the time of its call.
const LOGGED_AT = Symbol('zkrecipes.loggedAt');

type Level = 'error' | 'warn' | 'info' | 'debug';
type Info = Logform.TransformableInfo & { message: string; [LOGGED_AT]?: Date };

// One warning per process, not per client: an application with ten clients and a typo in the
// environment should see the typo once.
let warnedAboutInvalidLevel = false;

/** winston, once loaded; undefined before, and null when it could not be loaded. */
let winston: typeof Winston | null | undefined;
/** The load under way, and the lines of every default logger waiting for it, in call order. */
let loading: Promise<void> | undefined;
const pending: { readonly sink: WinstonSink; readonly info: Info }[] = [];

/**
 * The logger the framework uses when none is injected: winston, quiet by default.
 *
 * - Level from `ZKRECIPES_LOG_LEVEL` (`error`, `warn`, `info`, `http`, `verbose`, `debug`,
 *   `silly`, or `silent` for nothing at all); default `warn`, so a healthy client prints nothing.
 *   An invalid value falls back to `warn` and says so once per process.
 * - Every level goes to stderr: stdout belongs to the application.
 * - One compact line per entry: `time level [component path] message {meta}`, e.g.
 *   `2025-01-02T03:04:05.678Z warn [LeaderLatch /app/leader] lost leadership {"id":"worker-3"}`.
 * - winston is loaded with the first line to write, not before: a quiet process never loads it.
 *   Lines logged while it loads are written in order once it has, with the time of their call.
 *
 * Applications with their own logging should inject their winston logger instead
 * (`createFramework({ logger })`).
 */
export function createDefaultLogger(): Logger {
  const raw = process.env[LOG_LEVEL_ENV]?.trim().toLowerCase();
  const valid = raw === undefined || raw === '' || LEVELS.has(raw);
  const level = valid && raw ? raw : DEFAULT_LEVEL;
  const logger = gated(new WinstonSink(level), level === 'silent' ? -1 : SEVERITY[level]!, {});

  if (!valid && !warnedAboutInvalidLevel) {
    warnedAboutInvalidLevel = true;
    logger.warn(`Ignoring invalid ${LOG_LEVEL_ENV}; using "${DEFAULT_LEVEL}"`, {
      value: process.env[LOG_LEVEL_ENV],
      validLevels: [...LEVELS],
    });
  }
  return logger;
}

/**
 * Resolves once every line the default loggers have taken so far was handed to winston (or,
 * should winston fail to load, written to stderr directly): what a close or an exit waits for,
 * so that no line is lost to a winston still loading.
 */
export async function defaultLoggersFlushed(): Promise<void> {
  await loading;
}

/**
 * Checks the level before anything else: a disabled call costs a comparison, and never loads
 * winston. (winston itself runs its formats and its stream for every call and drops disabled
 * levels only at the transport: measured at ~2 µs warm and 60-90 µs cold per info/debug call at
 * level `warn`, on the paths of lock handoffs and leader changes.) Children keep their fields
 * here and hand them with each line, as winston's `child` would.
 */
function gated(sink: WinstonSink, severity: number, fields: Record<string, unknown>): Logger {
  const when =
    (level: Level) =>
    (message: string, meta?: Record<string, unknown>): void => {
      if (SEVERITY[level]! <= severity) sink.write(level, message, fields, meta);
    };
  return {
    error: when('error'),
    warn: when('warn'),
    info: when('info'),
    debug: when('debug'),
    child: (meta) => gated(sink, severity, { ...fields, ...meta }),
  };
}

/** One winston logger, made once winston is loaded. */
class WinstonSink {
  readonly #level: string;
  #logger: WinstonLogger | undefined;

  constructor(level: string) {
    this.#level = level;
  }

  write(
    level: Level,
    message: string,
    fields: Record<string, unknown>,
    meta: Record<string, unknown> | undefined,
  ): void {
    const info: Info = { ...fields, ...meta, level, message, [LOGGED_AT]: new Date() };
    if (winston === undefined) {
      // One line the same for every default logger, so lines of several loggers (a client's,
      // closeOnExit's) keep their order across the load.
      pending.push({ sink: this, info });
      loading ??= loadWinston();
    } else {
      this.#log(winston, info);
    }
  }

  #log(loaded: typeof Winston | null, info: Info): void {
    if (loaded === null) {
      process.stderr.write(`${formatLine(info)}\n`);
      return;
    }
    this.#logger ??= loaded.createLogger({
      level: this.#level,
      format: loaded.format.printf(formatLine),
      transports: [new loaded.transports.Console({ stderrLevels: Object.keys(SEVERITY) })],
    });
    this.#logger.log(info);
  }

  static flush(loaded: typeof Winston | null): void {
    for (const { sink, info } of pending.splice(0)) sink.#log(loaded, info);
  }
}

async function loadWinston(): Promise<void> {
  let loaded: typeof Winston | null;
  try {
    loaded = (await import('winston')).default;
  } catch (error) {
    // winston is a dependency, but a bundle may leave it out: the lines still get out.
    loaded = null;
    process.stderr.write(`${formatLine(lineOf('error', 'could not load winston', { error }))}\n`);
  }
  winston = loaded;
  WinstonSink.flush(loaded);
}

function lineOf(level: Level, message: string, meta: Record<string, unknown>): Info {
  return { ...meta, level, message, [LOGGED_AT]: new Date() };
}

function formatLine(info: Logform.TransformableInfo): string {
  const loggedAt = (info as Info)[LOGGED_AT] ?? new Date();
  const parts = [loggedAt.toISOString(), info.level];
  const where = [info['component'], info['path']].filter((v) => v !== undefined).map(String);
  if (where.length > 0) parts.push(`[${where.join(' ')}]`);
  parts.push(String(info.message));

  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(info)) {
    if (!PLACED_FIELDS.has(key)) meta[key] = value;
  }
  if (Object.keys(meta).length > 0) parts.push(stringifyMeta(meta));
  return parts.join(' ');
}

// JSON keeps the line greppable and on one line. Errors would serialize as `{}` and Buffers as
// byte arrays, so both get a readable form; anything JSON cannot take (cycles) falls back to
// util.inspect, also on one line.
function stringifyMeta(meta: Record<string, unknown>): string {
  try {
    // A `function` replacer: `this[key]` is the value before toJSON ran (Buffer has a toJSON).
    return JSON.stringify(meta, function (this: Record<string, unknown>, key, value: unknown) {
      const original = this[key];
      if (original instanceof Error) {
        const code = (original as { code?: unknown }).code;
        return code === undefined
          ? { name: original.name, message: original.message }
          : { name: original.name, message: original.message, code };
      }
      if (original instanceof Uint8Array) return `<${original.byteLength} bytes>`;
      if (typeof value === 'bigint') return value.toString();
      return value;
    });
  } catch {
    return inspect(meta, { breakLength: Infinity, depth: 4 });
  }
}

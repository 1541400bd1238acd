// JSON as Jackson 2.x writes and reads it (Curator's JSON serializers: discovery's instances,
// modeled nodes), for byte-identical nodes: compact output,
// Java's Double.toString for fractions and doubles beyond 2^53, integers kept exact (as bigint
// when JavaScript's numbers cannot hold them), Jackson's string escapes.
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';

/** A JSON value as this module reads and writes it (undefined is not one). */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

const SHORT_ESCAPES: Record<number, string> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

function hex4(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A string as Jackson's UTF-8 generator writes it: `"` and `\` escaped, the short escapes for
 * \b \t \n \f \r, other control characters as upper-case `\u00XX`, characters outside the
 * Basic Multilingual Plane as their escaped surrogate pair, everything else raw. A lone
 * surrogate cannot be written (Jackson fails on it too).
 */
export function quoteString(value: string, where: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const short = SHORT_ESCAPES[code];
    if (short !== undefined) out += short;
    else if (code < 0x20) out += hex4(code);
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = value.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) {
        throw new InvalidArgumentError(`${where} holds a lone surrogate (U+${code.toString(16)})`);
      }
      out += hex4(code) + hex4(low);
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      throw new InvalidArgumentError(`${where} holds a lone surrogate (U+${code.toString(16)})`);
    } else out += value[i];
  }
  return `${out}"`;
}

/**
 * A number as Jackson writes the Java value it would be read into: a safe integer as a Java
 * int or long (its digits), anything else as a Java double (`1.5`, `1.0E20`, `1.0E-5`).
 */
export function formatNumber(value: number, where: string): string {
  if (!Number.isFinite(value)) {
    throw new InvalidArgumentError(`${where} is ${value}: JSON has no such number`);
  }
  if (Number.isSafeInteger(value)) return Object.is(value, -0) ? '-0.0' : String(value);
  return javaDoubleString(value);
}

/** Java's `Double.toString` from JavaScript's shortest round-trip digits. */
function javaDoubleString(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const digits = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${digits}E${exponent.replace('+', '')}`;
}

/** Compact JSON, keys in insertion order, as Jackson writes a Map or a bean. */
export function writeJson(value: JsonValue, where: string, seen = new Set<object>()): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return formatNumber(value, where);
    case 'bigint':
      return value.toString();
    case 'string':
      return quoteString(value, where);
    case 'object':
      break;
    default:
      throw new InvalidArgumentError(`${where} is a ${typeof value}: not JSON`);
  }
  if (seen.has(value)) throw new InvalidArgumentError(`${where} refers to itself`);
  seen.add(value);
  let out: string;
  if (Array.isArray(value)) {
    out = `[${(value as readonly JsonValue[]).map((item, i) => writeJson(item, `${where}[${i}]`, seen)).join(',')}]`;
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new InvalidArgumentError(`${where} is not a plain object or array`);
    }
    const parts: string[] = [];
    for (const [key, item] of Object.entries(value as Record<string, JsonValue>)) {
      if (item === undefined) {
        throw new InvalidArgumentError(`${where}.${key} is undefined: not JSON (use null)`);
      }
      parts.push(`${quoteString(key, `${where} key`)}:${writeJson(item, `${where}.${key}`, seen)}`);
    }
    out = `{${parts.join(',')}}`;
  }
  seen.delete(value);
  return out;
}

/** Why {@link readJson} failed, with the offset. */
export class JsonSyntaxError extends Error {
  /** Always `'JsonSyntaxError'`. */
  override name = 'JsonSyntaxError';
  /** Always `'JSON_SYNTAX'`: a stable code to branch on across package copies. */
  readonly code = 'JSON_SYNTAX';
}

/**
 * Parses JSON as Jackson would read it into Java values: integers beyond 2^53 as bigint (a Java
 * long or BigInteger stays exact), other numbers as numbers. Objects have a null prototype
 * only in spirit: `__proto__` is an ordinary key.
 */
export function readJson(text: string): JsonValue {
  const reader = new Reader(text);
  const value = reader.value();
  reader.skipSpace();
  if (reader.at < text.length) reader.fail('text after the value');
  return value;
}

// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${this.at}`);
  }

  skipSpace(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.#text);
    this.at = SPACE.lastIndex;
  }

  value(): JsonValue {
    this.skipSpace();
    const c = this.#text[this.at];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    if (c === '"') return this.#string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number();
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.#text.startsWith(word, this.at)) {
        this.at += word.length;
        return result;
      }
    }
    return this.fail('unexpected character');
  }

  #object(): JsonValue {
    const result: Record<string, JsonValue> = {};
    this.at++;
    this.skipSpace();
    if (this.#text[this.at] === '}') {
      this.at++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.#text[this.at] !== '"') this.fail('expected a key');
      const key = this.#string();
      this.skipSpace();
      if (this.#text[this.at++] !== ':') this.fail('expected ":"');
      Object.defineProperty(result, key, {
        value: this.value(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const next = this.#text[this.at++];
      if (next === '}') return result;
      if (next !== ',') this.fail('expected "," or "}"');
    }
  }

  #array(): JsonValue {
    const result: JsonValue[] = [];
    this.at++;
    this.skipSpace();
    if (this.#text[this.at] === ']') {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value());
      this.skipSpace();
      const next = this.#text[this.at++];
      if (next === ']') return result;
      if (next !== ',') this.fail('expected "," or "]"');
    }
  }

  #string(): string {
    STRING.lastIndex = this.at;
    const match = STRING.exec(this.#text);
    if (match === null) return this.fail('bad string');
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  #number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.#text);
    if (match === null) return this.fail('bad number');
    this.at += match[0].length;
    const isInteger = match[1] === undefined && match[2] === undefined;
    const value = Number(match[0]);
    if (isInteger && !Number.isSafeInteger(value)) return BigInt(match[0]);
    return value;
  }
}

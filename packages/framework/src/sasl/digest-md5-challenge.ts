/**
 * The `name=value, name="quoted value", ...` lists DIGEST-MD5 exchanges (RFC 2831 section
 * 7.1): parsed into a map of lists (a name such as `realm` may repeat), and quoted for writing.
 */

/** Each directive's values, in order, names lower-cased. Throws on malformed input. */
export function parseDirectives(text: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
  };
  for (skipSpace(); i < text.length; skipSpace()) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`malformed directive at "${text.slice(i, i + 20)}"`);
    const name = text.slice(i, eq).trim().toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`malformed directive name "${name}"`);
    i = eq + 1;
    while (i < text.length && /[ \t]/.test(text[i]!)) i++;
    let value = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (i >= text.length) throw new Error(`unterminated quoted value of ${name}`);
        const c = text[i]!;
        if (c === '"') break;
        if (c === '\\') i++;
        if (i < text.length) value += text[i];
      }
      i++;
    } else {
      const end = text.indexOf(',', i);
      value = text.slice(i, end < 0 ? text.length : end).trim();
      i = end < 0 ? text.length : end;
    }
    const values = directives.get(name);
    if (values) values.push(value);
    else directives.set(name, [value]);
  }
  return directives;
}

/** `value` as a quoted-string, `"` and `\` escaped. */
export function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

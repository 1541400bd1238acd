// The fenced code blocks of a markdown page, each with its language and the line it starts on,
// so that a failure can point at the block in the page.

/** One fenced block of a page. */
export interface CodeBlock {
  /** The fence's language (`ts`, `sh`, `json`, ...); empty when the fence names none. */
  readonly lang: string;
  /** The page's line number (1-based) of the block's first line of code. */
  readonly line: number;
  /** The code between the fences. */
  readonly code: string;
  /**
   * The word of an HTML comment (`<!-- continues -->`) on the last non-blank line before the
   * fence, which tells a docs test how to treat the block; empty when there is none.
   */
  readonly marker: string;
  /** What follows the word after a colon (`<!-- fragment: why -->`); empty when nothing. */
  readonly note: string;
}

/** Every fenced block of `markdown`, in page order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)$/.exec(lines[i]!.trim());
    if (open === null) continue;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = /^<!--\s*([^\s:]+)(?::\s*(.*?))?\s*-->$/.exec(lines[before]?.trim() ?? '');
    const code = lines.slice(i + 1, end).join('\n');
    const [marker, note] = [comment?.[1] ?? '', comment?.[2] ?? ''];
    blocks.push({ lang: open[1]!, line: i + 2, code, marker, note });
    i = end;
  }
  return blocks;
}

/** The module specifiers a TypeScript example imports (`from '...'`). */
export function importsOf(code: string): string[] {
  return [...code.matchAll(/\bfrom '([^']+)'/g)].map((match) => match[1]!);
}

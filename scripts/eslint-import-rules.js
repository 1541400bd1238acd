// Two lint rules on relative imports, for docs/architecture.md's layers:
// - layered-imports: inside one source tree (the framework's), a file may import its own folder
//   and the folders of lower layers only, so the folders show the layers and no folder cycle
//   can form;
// - no-import-cycle: no file of a package's src/ reaches itself through imports that exist at
//   run time (`import type` is erased, so a cycle of types alone costs nothing).
// Files other than the one being linted are read from disk with a regex: enough for the import
// statements this repository writes (prettier puts each on its own lines).
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const RUNTIME_IMPORT =
  /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The `.ts` source a relative specifier names (`./a.js` is `./a.ts`), from `file`'s folder. */
function targetOf(file, specifier) {
  return resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
}

const importsCache = new Map();

/** Runtime imports of a file on disk, cached by modification time. */
function runtimeImportsOnDisk(file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.targets;
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(RUNTIME_IMPORT)].map((m) => targetOf(file, m[1]));
  importsCache.set(file, { mtimeMs, targets });
  return targets;
}

/** A path of runtime imports from `start` back to `file`, or undefined. */
function pathBackTo(file, start) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [at, path] = stack.pop();
    if (at === file) return path;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const next of runtimeImportsOnDisk(at)) stack.push([next, [...path, next]]);
  }
  return undefined;
}

/** The relative-import declarations of a program, with whether each exists at run time. */
function relativeImports(program) {
  const found = [];
  for (const node of program.body) {
    const isImport = node.type === 'ImportDeclaration';
    const isReexport =
      node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration';
    if (!(isImport || isReexport) || !node.source) continue;
    const specifier = node.source.value;
    if (typeof specifier !== 'string' || !specifier.startsWith('.')) continue;
    const typeOnly = node.importKind === 'type' || node.exportKind === 'type';
    found.push({ node, specifier, runtime: !typeOnly });
  }
  return found;
}

const layeredImports = {
  meta: {
    type: 'problem',
    docs: { description: 'imports go from a folder to its own or a lower layer only' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        "'{{from}}' (layer {{fromRank}}) may not import '{{to}}' (layer {{toRank}}): imports go down the layers in docs/architecture.md",
      sideways:
        "'{{from}}' may not import '{{to}}': folders of one layer stay independent (docs/architecture.md)",
      unknown: "folder '{{folder}}' has no layer: add it to the layers in eslint.config.js",
    },
  },
  create(context) {
    const { root, layers } = context.options[0];
    const rootDir = resolve(context.cwd, root);
    const rank = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i])));
    const folderOf = (file) => {
      const rel = relative(rootDir, file);
      if (rel.startsWith('..')) return undefined;
      const parts = rel.split(sep);
      return parts.length > 1 ? parts[0] : '.';
    };
    const from = folderOf(context.filename);
    if (from === undefined) return {};
    return {
      Program(program) {
        if (!rank.has(from)) {
          context.report({ node: program, messageId: 'unknown', data: { folder: from } });
          return;
        }
        for (const { node, specifier } of relativeImports(program)) {
          const to = folderOf(targetOf(context.filename, specifier));
          if (to === undefined || to === from) continue;
          if (!rank.has(to)) {
            context.report({ node, messageId: 'unknown', data: { folder: to } });
            continue;
          }
          const data = { from, to, fromRank: rank.get(from), toRank: rank.get(to) };
          if (rank.get(to) > rank.get(from)) context.report({ node, messageId: 'upward', data });
          else if (rank.get(to) === rank.get(from)) {
            context.report({ node, messageId: 'sideways', data });
          }
        }
      },
    };
  },
};

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no runtime import cycle between source files' },
    schema: [],
    messages: { cycle: 'import cycle: {{cycle}}' },
  },
  create(context) {
    const file = context.filename;
    return {
      Program(program) {
        for (const { node, specifier, runtime } of relativeImports(program)) {
          if (!runtime) continue;
          const back = pathBackTo(file, targetOf(file, specifier));
          if (!back) continue;
          const cycle = [file, ...back].map((f) => relative(context.cwd, f)).join(' -> ');
          context.report({ node, messageId: 'cycle', data: { cycle } });
        }
      },
    };
  },
};

export const importRules = {
  meta: { name: 'zkrecipes-imports' },
  rules: { 'layered-imports': layeredImports, 'no-import-cycle': noImportCycle },
};

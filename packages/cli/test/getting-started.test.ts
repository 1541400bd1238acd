// docs/getting-started.md promises that its TypeScript examples run as written. This test
// holds it to that: every ```ts block is type-checked as a module of this repository (strict,
// nodenext, resolving '@zkrecipes/...' like a user's project would), transpiled with the
// TypeScript API, and run with node against a TestingServer via ZK_CONNECT_STRING, the
// variable the page tells readers to set. Each must exit 0 on its own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing } from '@zkrecipes/testing';
import ts from 'typescript';

const docPath = new URL('../../../../docs/getting-started.md', import.meta.url).pathname;
// Inside the package (whose package.json says "type": "module"), so the examples resolve
// '@zkrecipes/...' through the workspace's node_modules exactly like an installed copy.
const workDir = new URL('../doc-examples/', import.meta.url).pathname;

/** The ```ts blocks of a markdown page, with the line each starts on. */
function tsBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

function typeErrors(files: readonly string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file?.fileName.split('/').pop() ?? '';
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

function runNode(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timing.ms(60_000));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('docs/getting-started.md', () => {
  let server: TestingServer;
  const blocks = tsBlocks(readFileSync(docPath, 'utf8'));

  before(async () => {
    server = await TestingServer.start();
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
  });
  after(async () => {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('has the examples the page promises (connect, lock, leader, states, testing)', () => {
    assert.ok(blocks.length >= 5, `found ${blocks.length} ts blocks`);
  });

  it('type-checks every ts example as a strict nodenext module', () => {
    const files = blocks.map(({ line, code }) => {
      const file = join(workDir, `example-line-${line}.ts`);
      writeFileSync(file, code);
      return file;
    });
    assert.deepEqual(typeErrors(files), []);
  });

  for (const [index, { line, code }] of blocks.entries()) {
    it(`runs example ${index + 1} (line ${line}) as written`, async () => {
      const { outputText } = ts.transpileModule(code, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      });
      const file = join(workDir, `example-line-${line}.mjs`);
      writeFileSync(file, outputText);
      const { code: exit, output } = await runNode(file, {
        ZK_CONNECT_STRING: server.connectString,
      });
      assert.equal(exit, 0, `example at line ${line} failed:\n${output}`);
    });
  }
});

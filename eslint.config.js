// Type-aware lint for every workspace. Rules that matter most here: no floating promises
// (a dropped promise is an unhandled rejection waiting to happen) and no `export *` barrels.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importRules } from './scripts/eslint-import-rules.js';

// Only the facade may load node-zookeeper-client (docs/architecture.md, "The
// node-zookeeper-client facade"): it checks the nzc internals it relies on and overrides them on
// its own client instances, so a second importer would use an unchecked nzc without them. Static imports and re-exports are
// no-restricted-imports' job; `require()`, `createRequire(...)()` and `import()` need
// no-restricted-syntax.
const NZC_FACADE = ['packages/framework/src/zk/nzc-adapter.ts'];
const NZC_MESSAGE =
  'Only the facade (packages/framework/src/zk/nzc-adapter.ts) may load node-zookeeper-client; go through @zkrecipes/framework (docs/architecture.md).';
// esquery regex: the package or any file in it, not a package whose name merely starts so.
const NZC_SPECIFIER = '/^node-zookeeper-client(?![\\w-])/';
// The framework's folders, lowest layer first (docs/architecture.md, "Layers"). A file imports
// its own folder and lower layers only; folders of one layer do not import each other.
const FRAMEWORK_LAYERS = [
  ['errors', 'async', 'logging', 'streams'],
  ['checks'],
  ['paths', 'tls', 'sasl', 'compression'],
  ['retry', 'telemetry'],
  ['zk'],
  ['state', 'schema'],
  ['health'],
  ['client'],
  ['recipe-support', 'lifecycle'],
  ['.'],
];
const SYNTAX_RULES = [
  {
    selector: 'ExportAllDeclaration',
    message: 'Use explicit named exports, not `export *`.',
  },
  {
    selector: 'TSEnumDeclaration',
    message: 'Use an `as const` object with a same-named type instead of an enum.',
  },
];
const NZC_SYNTAX_RULES = [
  {
    selector: `CallExpression[callee.name='require'][arguments.0.value=${NZC_SPECIFIER}]`,
    message: NZC_MESSAGE,
  },
  {
    selector: `CallExpression[callee.callee.name='createRequire'][arguments.0.value=${NZC_SPECIFIER}]`,
    message: NZC_MESSAGE,
  },
  { selector: `ImportExpression[source.value=${NZC_SPECIFIER}]`, message: NZC_MESSAGE },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/*.tsbuildinfo'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...SYNTAX_RULES, ...NZC_SYNTAX_RULES],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'node-zookeeper-client', message: NZC_MESSAGE }],
          patterns: [{ group: ['node-zookeeper-client/*'], message: NZC_MESSAGE }],
        },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    plugins: { zkrecipes: importRules },
    rules: {
      'zkrecipes/no-import-cycle': 'error',
      'zkrecipes/layered-imports': [
        'error',
        { root: 'packages/framework/src', layers: FRAMEWORK_LAYERS },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: NZC_FACADE,
    rules: {
      'no-restricted-syntax': ['error', ...SYNTAX_RULES],
      'no-restricted-imports': 'off',
    },
  },
);

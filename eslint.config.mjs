// The linter `npm test` runs (CONTRIBUTING.md): typescript-eslint's recommended rules over src/ and test/,
// with the few that fight the code rules turned off, each with its reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'vendor/**', 'bundle/**', 'node_modules/**', 'coverage/**', 'openapi/**', 'test-output/**', 'dashboard-dist/**'] },
  // A disable comment that no longer disables anything is an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused names are errors, except the `_name` convention for a parameter a signature needs.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Nothing is module-global (CONTRIBUTING.md rule 2): state lives in the world that owns it, made by createWorld.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Program > VariableDeclaration[kind!='const']",
          message: 'No module-level mutable state: keep it in the world (src/world/world.ts) or in the object that owns it.',
        },
        {
          selector: "ExportNamedDeclaration > VariableDeclaration[kind!='const']",
          message: 'No module-level mutable state: keep it in the world (src/world/world.ts) or in the object that owns it.',
        },
      ],
    },
  },
  {
    // Tests read JSON documents whose shape is what they assert; typing each one first would only restate the assertion.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The browser's side: the dashboard and the client it bundles. Their type check sees node's declarations (the
    // contract's types come from the route table), so node's globals and modules are refused here instead.
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx', 'src/client/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'Buffer', 'process', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate', 'clearImmediate'],
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'The browser has no node modules.' }] }],
    },
  },
  {
    // The dashboard's hooks (preact/hooks, the same rules as React's): called unconditionally, in the same order,
    // with every value an effect reads among its dependencies, so a view never shows what an old render captured.
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['bench/**/*.js', 'bin/**/*.js', 'scripts/**/*.js', 'test/support/*.js', 'examples/ci/*.js', 'jest.config.js', '.dependency-cruiser.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: Object.fromEntries(
        [
          'require',
          'module',
          'process',
          'console',
          '__dirname',
          '__filename',
          'Buffer',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'setImmediate',
          'URL',
          'URLSearchParams',
          'fetch',
          'AbortController',
          'TextEncoder',
          'TextDecoder',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

// Writes dist/testing/vitest.d.mts beside dist/testing/vitest.d.ts (run after tsc by `npm run build`).
// The package is CommonJS, so TypeScript reads its .d.ts files as CommonJS and resolves their `vitest`
// to vitest's CommonJS types, a different module from the one an ESM test file imports: the matchers'
// declaration merging would miss it. An .d.mts resolves `vitest` as the test file does.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = join(__dirname, '..', 'dist', 'testing');
const declarations = readFileSync(join(dir, 'vitest.d.ts'), 'utf8').replace(/from '\.\/matchers'/g, "from './matchers.js'");
writeFileSync(join(dir, 'vitest.d.mts'), declarations);

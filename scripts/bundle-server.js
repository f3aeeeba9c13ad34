// Writes bundle/bvs-mock.js (and its source map; run by `npm run build`): the command line and server of dist/ with
// their runtime dependencies in one minified CommonJS file, which the `bvs-mock` command runs, from the npm package
// and in the container image alike: a fast start, one file to read and compile (from V8's code cache after the
// first run; docs/decisions/0003-msw-once.md), and in the image a small layer with no node_modules. faker, which only
// generated trees need and which is half the code, is left out: the image gets it as a file of its own, which the
// bundle loads on first use, and the npm package has it as a dependency. msw is left out: the server never loads it
// (in-process use is the library's). bin/bvs-mock.js uses dist/ where the bundle is absent.
const { buildSync } = require('esbuild');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const out = join(root, 'bundle');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  keepNames: true,
  sourcemap: true,
  legalComments: 'eof',
  logLevel: 'warning',
};
buildSync({
  ...common,
  entryPoints: [join(root, 'dist', 'cli', 'main.js')],
  outfile: join(out, 'bvs-mock.js'),
  external: ['msw', 'msw/node', '../../vendor/msw.js', '@faker-js/faker'],
});
// Where `require('@faker-js/faker')` from bundle/bvs-mock.js finds it.
const faker = join(out, 'node_modules', '@faker-js', 'faker');
mkdirSync(faker, { recursive: true });
buildSync({ ...common, entryPoints: [require.resolve('@faker-js/faker')], outfile: join(faker, 'index.js') });
writeFileSync(join(faker, 'package.json'), `${JSON.stringify({ name: '@faker-js/faker', main: 'index.js' })}\n`);

// The built-in scenarios parsed and checked now, so a start reads one JSON file instead of parsing YAML (each
// with its file's content hash: an edited scenario file is read afresh; src/engine/scenarios/scenario-library.ts).
const { createHash } = require('node:crypto');
const { readFileSync, rmSync } = require('node:fs');
const { basename } = require('node:path');
const { ScenarioLibrary, PREBUILT_SCENARIOS_FILE, BUILT_IN_SCENARIOS_DIR } = require(join(root, 'dist', 'engine', 'scenarios', 'scenario-library.js'));
rmSync(join(out, PREBUILT_SCENARIOS_FILE), { force: true });
const library = ScenarioLibrary.builtIn();
const prebuilt = library
  .list()
  .filter((summary) => summary.builtIn)
  .map((summary) => ({
    // A built-in scenario's source reads `built-in scenarios/<file>`: the file is in the package's scenarios folder.
    file: basename(summary.source),
    sha256: createHash('sha256')
      .update(readFileSync(join(BUILT_IN_SCENARIOS_DIR, basename(summary.source))))
      .digest('hex'),
    scenario: library.byName(summary.name),
  }));
writeFileSync(join(out, PREBUILT_SCENARIOS_FILE), JSON.stringify(prebuilt));

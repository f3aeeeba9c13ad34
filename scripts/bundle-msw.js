// Writes vendor/msw.js (run by `npm run build`): msw and msw/node with their ESM-only dependencies (rettime,
// until-async, ...) bundled into one CommonJS file, the only copy of msw the package ships. bvs-mock's in-process
// transport (startBvsMock({ transport: 'in-process' })) loads it, so a stock jest project, whose module loader
// cannot read ESM from node_modules, runs it with no configuration. One bundle, so the handlers and the server
// that runs them share one copy of msw. Only bvs-mock/msw, for teams with their own msw server, uses their msw
// (an optional peer dependency). docs/decisions/0003-msw-once.md
const { buildSync } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');
buildSync({
  stdin: {
    contents: "export { http } from 'msw'; export { setupServer } from 'msw/node';",
    resolveDir: root,
    sourcefile: 'vendor-msw-entry.js',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: join(root, 'vendor', 'msw.js'),
  legalComments: 'eof',
  logLevel: 'warning',
});

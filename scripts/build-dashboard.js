// Builds the dashboard served at /_mock/ (dashboard/ → dashboard-dist/): one script and one style sheet,
// minified, named by content hash so a browser may keep them for a year, and an index.html naming them.
// No CDN and no web font: the page works without a network. Prints the sizes, gzipped too.
const { build } = require('esbuild');
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const { gzipSync } = require('node:zlib');

const root = join(__dirname, '..');
const out = join(root, 'dashboard-dist');

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'dashboard', 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: join(out, 'assets'),
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => join(root, file));
  const script = outputs.find((file) => file.endsWith('.js'));
  const style = outputs.find((file) => file.endsWith('.css'));
  if (!script || !style) throw new Error(`bvs-mock: the dashboard build made ${outputs.join(', ')}; expected one .js and one .css`);
  const page = readFileSync(join(root, 'dashboard', 'index.html'), 'utf8')
    .replace('%STYLE%', `/_mock/assets/${basename(style)}`)
    .replace('%SCRIPT%', `/_mock/assets/${basename(script)}`);
  writeFileSync(join(out, 'index.html'), page);
  let total = 0;
  let gzipped = 0;
  for (const file of [join(out, 'index.html'), script, style]) {
    const data = readFileSync(file);
    total += data.length;
    gzipped += gzipSync(data).length;
  }
  process.stdout.write(`dashboard: ${(total / 1024).toFixed(1)} kB (${(gzipped / 1024).toFixed(1)} kB gzipped) in ${out}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});

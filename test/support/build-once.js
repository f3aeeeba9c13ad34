// jest's globalSetup for every tier (jest.config.js): runs `npm run build` once, before any worker starts,
// when what the tier's tests use is missing or older than its sources. Tests then only use the build; none
// builds from inside a worker, where a build would race the other workers (build-dashboard.js deletes
// dashboard-dist/ while another test serves it). After `npm ci`, `prepare` has built everything and this
// only compares modification times.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** Newest modification time of `path` (a file, or every file under a folder), in ms. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0);
}

/**
 * What the build makes, the step that makes it, and what else it is made from. Every tier loads the bundled
 * msw (vendor/) and serves the dashboard (dashboard-dist/); the tiers that run the command line or pack the
 * package need dist/ too. An output whose step is gone from the build is not waited for.
 */
const OUTPUTS = {
  vendor: { file: 'vendor/msw.js', step: 'scripts/bundle-msw.js', sources: ['package-lock.json'] },
  dashboard: { file: 'dashboard-dist/index.html', step: 'scripts/build-dashboard.js', sources: ['dashboard'] },
  dist: { file: 'dist/cli/main.js', step: 'tsconfig.build.json', sources: ['src', 'scripts/esm-types.js'] },
};

/** The outputs `tier` needs that are missing or older than their sources, by name. */
function stale(tier) {
  const needed = tier === 'unit' ? ['vendor', 'dashboard'] : ['vendor', 'dashboard', 'dist'];
  return needed.filter((name) => {
    const { file, step, sources } = OUTPUTS[name];
    if (!existsSync(join(ROOT, step))) return false;
    const output = join(ROOT, file);
    if (!existsSync(output)) return true;
    const built = statSync(output).mtimeMs;
    return [step, ...sources].some((source) => existsSync(join(ROOT, source)) && newest(join(ROOT, source)) > built);
  });
}

module.exports = async function buildOnce(_globalConfig, projectConfig) {
  const tier = projectConfig.displayName?.name ?? projectConfig.displayName ?? 'unit';
  const outdated = stale(tier);
  if (outdated.length === 0) return;
  process.stderr.write(`\nbvs-mock: building (${outdated.join(', ')} out of date) before the ${tier} tests\n`);
  try {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 180_000 });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    throw new Error(`bvs-mock: \`npm run build\` failed before the ${tier} tests:\n${output}`, { cause: error });
  }
};

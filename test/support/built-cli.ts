import { execFileSync, spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..');
/** The command line as users run it: `bin/bvs-mock.js`, over the one-file bundle that `npm run build` writes (over `dist/` if compiled since). */
export const BIN = join(ROOT, 'bin', 'bvs-mock.js');

/** Newest modification time under `dir`, in ms. */
export function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
}

/**
 * Builds `dist/` when `src/` is newer, for tests that run the command line
 * (after `npm ci`, `prepare` has built it and nothing happens). Call it in `beforeAll` with a long timeout.
 */
export function buildCliIfStale(): void {
  let built: number;
  try {
    built = statSync(join(ROOT, 'dist', 'cli', 'main.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newest(join(ROOT, 'src'))) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
}

const running = new Set<ChildProcess>();

/** Spawns `node bin/bvs-mock.js ARGS` with only the given BVS_MOCK_* variables set; {@link stopSpawned} stops it. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BVS_MOCK_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...clean, ...env } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** What a command printed, and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bvs-mock ARGS` (through {@link spawnCli}) to its exit, gathering what it prints. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Stops every process {@link spawnCli} started that is still running, by its own handle (for `afterEach`). */
export async function stopSpawned(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  running.clear();
}

import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..');
/**
 * The command line as users run it: `bin/bvs-mock.js`, over the one-file bundle `npm run build` writes (over
 * `dist/` if compiled since), which jest's global setup (test/support/build-once.js) builds before the system
 * and package tiers start.
 */
export const BIN = join(ROOT, 'bin', 'bvs-mock.js');

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

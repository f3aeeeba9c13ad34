import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './built-cli';

/** Runs a command in `cwd` and returns its output; a failure throws with both output streams. */
export function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, CI: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
  }
}

/** {@link run} without blocking this process, for a command that calls a server this process runs. */
export function runAsync(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, CI: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...env } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`, { cause: error }));
        else resolve(stdout);
      },
    );
  });
}

/** bvs-mock packed as `npm pack` makes it for the registry, in a scratch folder of its own. */
export interface PackedPackage {
  /** The scratch folder: projects that install the tarball go here. */
  work: string;
  tarball: string;
  remove(): void;
}

/** Packs bvs-mock (dist/ as jest's global setup built it, never rebuilt here while other test files may run the built CLI). */
export function packPackage(prefix: string): PackedPackage {
  const work = mkdtempSync(join(tmpdir(), prefix));
  run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
  const tarball = join(
    work,
    readdirSync(work).find((file) => file.endsWith('.tgz'))!,
  );
  return { work, tarball, remove: () => rmSync(work, { recursive: true, force: true }) };
}

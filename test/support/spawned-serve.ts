import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnCli } from './built-cli';

/** `bvs-mock serve` spawned by a test, with what it printed so far and how it ended. */
export interface Served {
  child: ChildProcessWithoutNullStreams;
  spawnedAt: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first banner line once printed. */
  banner: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `node bin/bvs-mock.js serve ARGS` with only the given BVS_MOCK_* variables set. */
export function serve(args: string[], env: Record<string, string> = {}): Served {
  const spawnedAt = Date.now();
  const child = spawnCli(['serve', ...args], env);
  let stdout = '';
  let stderr = '';
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((candidate) => candidate.includes(' listening on '));
      if (line !== undefined) resolve(line);
    });
    void exit.then(({ code }) => reject(new Error(`bvs-mock exited with ${code} before its banner: ${stderr}`)));
  });
  banner.catch(() => undefined);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { child, spawnedAt, stdout: () => stdout, stderr: () => stderr, banner, exit };
}

/** The base URL the banner line names. */
export function urlOf(bannerLine: string): URL {
  const match = / listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(bannerLine);
  if (!match) throw new Error(`no URL in the banner line: ${bannerLine}`);
  return new URL(match[1]!);
}

import { parseRedactPath } from '../proxy/redact-path';

/**
 * Checks every `--redact` path before anything starts, with or without `--record`: a malformed one is said on
 * standard error, naming the path and what is wrong with it, and the command exits 2 (as a bad `--upstream` does).
 * Answers whether all of them are JSON paths.
 */
export function redactPathsReadable(command: string, paths: readonly string[]): boolean {
  for (const path of paths) {
    try {
      parseRedactPath(path);
    } catch (error) {
      process.stderr.write(`bvs-mock ${command}: ${(error as Error).message}\n`);
      process.exitCode = 2;
      return false;
    }
  }
  return true;
}

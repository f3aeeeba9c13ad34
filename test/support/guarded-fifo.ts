import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** A named pipe made for a test, with the guard that keeps a blocking read from hanging the run. */
export interface GuardedFifo {
  /** The FIFO's path. */
  file: string;
  /** Stops the guard; call it once the code under test has returned. */
  release(): void;
}

/** How long the guard waits before it opens the FIFO for writing and closes it again. */
export const FIFO_GUARD_MS = 4_000;

/**
 * Makes a FIFO (`mkfifo`) in `dir` with a guard: a separate process that, after
 * {@link FIFO_GUARD_MS}, opens it for writing and closes it, so a read blocked on it ends (with
 * nothing read). A synchronous read blocks the event loop, which no jest timeout can interrupt;
 * the guard turns that hang into a slow, wrong answer the test can see. The guard is a child
 * process, started before the code under test runs, and stopped by `release` through its own handle.
 *
 * @example
 * const fifo = guardedFifo(scratch, 'config.yaml');
 * try { expect(() => loadConfig(fifo.file)).toThrow('FIFO'); } finally { fifo.release(); }
 */
export function guardedFifo(dir: string, name: string): GuardedFifo {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  const guard: ChildProcess = spawn(
    process.execPath,
    ['-e', `setTimeout(() => { const fs = require('node:fs'); fs.closeSync(fs.openSync(process.argv[1], 'w')); }, ${FIFO_GUARD_MS});`, file],
    { stdio: 'ignore' },
  );
  return {
    file,
    release() {
      if (guard.exitCode === null && guard.signalCode === null) guard.kill('SIGKILL');
    },
  };
}

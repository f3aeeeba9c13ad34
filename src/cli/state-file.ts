import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../files/read-regular-file';
import { mockParts, type Mock } from '../mock/create-mock';
import { serverStateOf } from '../mock/server-state';

/** Real seconds between two saves of `--state-file`, unless `--state-interval` says otherwise. */
export const DEFAULT_STATE_INTERVAL_S = 30;
/** The longest `--state-interval`: an hour. */
export const MAX_STATE_INTERVAL_S = 3600;
/** The largest state file read back: far beyond what the retention limits let a server hold. */
const MAX_STATE_FILE_BYTES = 512 * 1024 * 1024;

/**
 * The state `--state-file` left (docs/fidelity.md row 119), parsed; undefined when there is no file yet (the
 * first start). A file that cannot be read or is not JSON stops start-up, naming the file and why: starting
 * empty over it would lose every session it holds.
 */
export function readStateFile(file: string): unknown {
  if (!existsSync(file)) return undefined;
  const read = readRegularFile({
    file,
    limit: MAX_STATE_FILE_BYTES,
    expected: 'a state file of bvs-mock (--state-file)',
    whenTooLarge: 'check the path, or move the file away to start without it',
  });
  if (!read.ok) throw new Error(`--state-file ${file}: ${read.message}`);
  try {
    return JSON.parse(read.text) as unknown;
  } catch (error) {
    throw new Error(
      `--state-file ${file}: the file is not JSON (${(error as Error).message}); it is not a state file bvs-mock wrote whole. Move it away to start without it.`,
      { cause: error },
    );
  }
}

/** What a save wrote. */
export interface SavedState {
  sessions: number;
  bytes: number;
  /** Deliveries still due or in flight, in every session: they resume when the state is loaded. */
  pendingDeliveries: number;
}

/**
 * Saves a server's whole state to `file` (docs/fidelity.md row 119): written to a temporary file beside it, then
 * renamed over it, so the file is always one whole state, the last one or the one before. Readable by its owner
 * only: it holds every session's credentials and secrets.
 */
export function saveStateFile(file: string, mock: Mock): SavedState {
  const parts = mockParts(mock);
  const state = serverStateOf(parts, new Date(parts.world.wallClock.wallNow()));
  const text = JSON.stringify(state);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`--state-file ${file}: cannot save the state: ${(error as Error).message}`, { cause: error });
  }
  const pending = [parts.world, ...parts.sessions.worlds()].reduce((sum, world) => sum + world.deliveries.counts().pending, 0);
  return { sessions: state.sessions.length, bytes: Buffer.byteLength(text), pendingDeliveries: pending };
}

/**
 * Saves the state every `intervalS` real seconds (unref'd: it never holds the process open) until the returned
 * function is called; a save that fails is told to `onError` and tried again at the next interval.
 */
export function saveEvery(file: string, mock: Mock, intervalS: number, onError: (error: Error) => void): () => void {
  const timer = setInterval(() => {
    try {
      saveStateFile(file, mock);
    } catch (error) {
      onError(error as Error);
    }
  }, intervalS * 1000).unref();
  return () => clearInterval(timer);
}

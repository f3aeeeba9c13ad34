import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { BvsMockConfig, toIssues, type Issue } from '../schemas';

/**
 * Largest configuration file read, in bytes (1 MiB). A configuration lists organizations,
 * credentials, settings and endpoints: a few kilobytes, tens for hundreds of organizations, so a
 * file over 1 MiB is something else (a log, a dump, the wrong path). Parsing costs grow with size
 * (1 MiB of dense YAML: under 2 s and about 130 MB; a 50 MB scenario took 32 s and 2.8 GB), so the
 * size is checked before the file is read. Same limit as a request body (docs/fidelity.md row 26).
 */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A configuration file that cannot be used: the file, and every problem with its JSON path. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly issues: Issue[],
    options?: { cause?: unknown },
  ) {
    super(issues.map((issue) => `bvs-mock: ${file}: ${issue.path}: ${issue.message}`).join('\n'), options);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and checks a configuration file (YAML or JSON). Without a file, the
 * embedded default: one organization with printed credentials (DESIGN.md).
 * Throws {@link ConfigError} naming the file, the path and the reason; a path
 * that is not a regular file (a FIFO, a directory, a device) or a file over
 * {@link MAX_CONFIG_FILE_BYTES} is refused before anything is read.
 */
export function loadConfig(file?: string): BvsMockConfig {
  if (file === undefined) return BvsMockConfig.parse({});
  const read = readRegularFile({
    file,
    limit: MAX_CONFIG_FILE_BYTES,
    expected: 'a configuration file (YAML or JSON)',
    whenTooLarge: 'a configuration is a few kilobytes, so check that --config (or BVS_MOCK_CONFIG) names the right file',
  });
  if (!read.ok) throw new ConfigError(file, [{ path: '$', code: read.code, message: read.message }], { cause: read.cause });
  const { text } = read;
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(file, [{ path: '$', code: 'syntax', message: `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}` }], { cause: error });
  }
  const result = BvsMockConfig.safeParse(raw ?? {});
  if (!result.success) throw new ConfigError(file, toIssues(result.error));
  return result.data;
}

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** The path, as the user gave it. */
  file: string;
  /** Largest size accepted, in bytes. */
  limit: number;
  /** What the file should be, for the messages: `a configuration file (YAML or JSON)`. */
  expected: string;
  /** What to do about a file over the limit, the end of that message. */
  whenTooLarge: string;
  /** What to do about a path that is not a regular file; default: give the path of `expected`. */
  whenNotRegular?: string;
}

/**
 * The outcome of {@link readRegularFile}: the text, or why there is none. `code` is
 * `unreadable` (with the system's error as `cause`), `not_a_regular_file` or `too_large`.
 */
export type RegularFileText =
  | { ok: true; text: string }
  | { ok: false; code: 'unreadable' | 'not_a_regular_file' | 'too_large'; message: string; cause?: unknown };

/**
 * Reads a user's input file (configuration, scenario, PEM) as UTF-8, refusing what would hang or
 * swamp start-up before reading a byte of it. A FIFO is the trap: `readFileSync` waits for a writer
 * that never comes, so the file is opened with `O_NONBLOCK` (which opening a FIFO for reading
 * honours at once) and checked with `fstat` on that same descriptor, so what is checked is what
 * would be read. Directories, devices and sockets are refused the same way, and a regular file
 * over `limit` bytes is refused from its size alone.
 *
 * @example
 * const read = readRegularFile({ file: 'bvs-mock.yaml', limit: MAX_CONFIG_FILE_BYTES, expected: 'a configuration file', whenTooLarge: 'check the path' });
 * if (!read.ok) console.error(read.message); // 'is a directory, not a regular file; give the path of a configuration file'
 */
export function readRegularFile({ file, limit, expected, whenTooLarge, whenNotRegular = `give the path of ${expected}` }: ReadRegularFileOptions): RegularFileText {
  let descriptor: number;
  try {
    // Windows has no O_NONBLOCK (and no FIFOs in the file system), hence the fallback to 0.
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    // Some kinds cannot even be opened (a socket: ENXIO; a directory on Windows: EISDIR): name the kind, not the errno.
    const stats = statQuietly(file);
    if (stats !== undefined && !stats.isFile()) return notRegular(stats, whenNotRegular);
    return { ok: false, code: 'unreadable', message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, cause: error };
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return notRegular(stats, whenNotRegular);
    if (stats.size > limit) {
      return { ok: false, code: 'too_large', message: `the file is ${stats.size} bytes, over the limit of ${describeBytes(limit)} for ${expected}; ${whenTooLarge}` };
    }
    return { ok: true, text: readFileSync(descriptor, 'utf8') };
  } catch (error) {
    return { ok: false, code: 'unreadable', message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, cause: error };
  } finally {
    closeSync(descriptor);
  }
}

function statQuietly(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function notRegular(stats: Stats, advice: string): RegularFileText {
  const why = stats.isFIFO() ? ' (reading it would block start-up until something writes to it)' : '';
  return { ok: false, code: 'not_a_regular_file', message: `is ${describeKind(stats)}, not a regular file${why}; ${advice}` };
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** `1 MiB (1048576 bytes)`: the round figure people remember, and the exact one to compare with. */
function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

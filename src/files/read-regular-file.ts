import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';

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
  { ok: true; text: string } | { ok: false; code: 'unreadable' | 'not_a_regular_file' | 'too_large'; message: string; cause?: unknown };

/**
 * Reads a user's input file (configuration, scenario, PEM) as UTF-8, refusing what would hang or
 * swamp start-up before reading a byte of it. A FIFO is the trap: `readFileSync` waits for a writer
 * that never comes, so the file is opened with `O_NONBLOCK` (which opening a FIFO for reading
 * honours at once) and checked with `fstat` on that same descriptor, so what is checked is what
 * would be read. Directories, devices and sockets are refused the same way, and a regular file
 * over `limit` bytes is refused from its size alone. A leading UTF-8 byte order mark, which some
 * Windows editors write, is dropped: it marks the encoding and is not part of the text (JSON.parse
 * refuses it).
 *
 * @example
 * const read = readRegularFile({ file: 'bvs-mock.yaml', limit: MAX_CONFIG_FILE_BYTES, expected: 'a configuration file', whenTooLarge: 'check the path' });
 * if (!read.ok) console.error(read.message); // 'is a directory, not a regular file; give the path of a configuration file'
 */
export function readRegularFile({
  file,
  limit,
  expected,
  whenTooLarge,
  whenNotRegular = `give the path of ${expected}`,
}: ReadRegularFileOptions): RegularFileText {
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
      return {
        ok: false,
        code: 'too_large',
        message: `the file is ${stats.size} bytes, over the limit of ${describeBytes(limit)} for ${expected}; ${whenTooLarge}`,
      };
    }
    return { ok: true, text: withoutByteOrderMark(readFileSync(descriptor, 'utf8')) };
  } catch (error) {
    return { ok: false, code: 'unreadable', message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, cause: error };
  } finally {
    closeSync(descriptor);
  }
}

/** The text without the byte order mark U+FEFF it may start with. */
function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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

/** `1 MiB (1048576 bytes)`, `256 KiB (262144 bytes)`: the round figure people remember, and the exact one to compare with. */
export function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  if (Number.isInteger(mebibytes)) return `${mebibytes} MiB (${bytes} bytes)`;
  const kibibytes = bytes / 1024;
  return Number.isInteger(kibibytes) ? `${kibibytes} KiB (${bytes} bytes)` : `${bytes} bytes`;
}

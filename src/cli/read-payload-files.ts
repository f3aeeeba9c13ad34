import { readRegularFile } from '../files/read-regular-file';
import { parse as parseYaml } from 'yaml';

/** Largest payload file `validate` reads: recorded NDJSON logs can be long, but a FIFO or a disk image is a mistake. */
const MAX_PAYLOAD_FILE_BYTES = 64 * 1024 * 1024;

/** One payload read from a file: a JSON value, or why it could not be read. */
export type PayloadFile = { file: string; ok: true; body: unknown } | { file: string; ok: false; reason: string };

/**
 * Reads payload files for `bvs-mock validate`. `.json` files hold one JSON
 * value, `.ndjson`/`.jsonl` files one per line (each line checked on its own,
 * named `file:line`), `.yaml`/`.yml` files one YAML document.
 */
export function readPayloadFiles(file: string): PayloadFile[] {
  const read = readRegularFile({
    file,
    limit: MAX_PAYLOAD_FILE_BYTES,
    expected: 'a payload file (JSON, YAML or NDJSON)',
    whenTooLarge: 'split it into smaller files',
  });
  if (!read.ok) return [{ file, ok: false, reason: read.message }];
  const text = read.text;
  if (/\.(ndjson|jsonl)$/i.test(file)) {
    return text
      .split('\n')
      .map((line, index) => ({ line, name: `${file}:${index + 1}` }))
      .filter(({ line }) => line.trim() !== '')
      .map(({ line, name }) => parseText(name, line, 'json'));
  }
  return [parseText(file, text, /\.ya?ml$/i.test(file) ? 'yaml' : 'json')];
}

function parseText(file: string, text: string, format: 'json' | 'yaml'): PayloadFile {
  try {
    return { file, ok: true, body: format === 'json' ? JSON.parse(text) : parseYaml(text) };
  } catch (error) {
    return { file, ok: false, reason: `not valid ${format.toUpperCase()}: ${(error as Error).message}` };
  }
}

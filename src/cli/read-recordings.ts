import { jsonDepthIssue, MAX_JSON_DEPTH } from '../api/read-body';
import { readRegularFile } from '../files/read-regular-file';
import { parseWith, Recording, RECORDING_FORMAT, RECORDING_VERSION } from '../schemas';

/** A recording is at most this large: a whole sandbox session of trees with their deliveries. */
const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * Reads recording files (`bvs-mock proxy --record`, `bvs-mock listen --record`) for `scenario from-recording` and
 * `drift`: each a regular file of at most 64 MiB, JSON, of the recording format and a version this bvs-mock reads.
 * Answers the recordings, or what is wrong with the first file that is not one, naming it.
 */
export function readRecordings(files: readonly string[]): { ok: true; recordings: Recording[] } | { ok: false; message: string } {
  const recordings: Recording[] = [];
  for (const file of files) {
    const read = readRegularFile({ file, limit: MAX_RECORDING_BYTES, expected: 'a recording', whenTooLarge: 'record fewer trees per file' });
    if (!read.ok) return { ok: false, message: `${file}: ${read.message}` };
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch (error) {
      return { ok: false, message: `${file}: not JSON (${(error as Error).message}); give a file written by --record` };
    }
    const header = value as { format?: unknown; version?: unknown };
    if (header?.format !== RECORDING_FORMAT)
      return { ok: false, message: `${file}: not a recording (its format is not ${RECORDING_FORMAT}); give a file written by --record` };
    if (header.version !== RECORDING_VERSION)
      return { ok: false, message: `${file}: a recording of version ${String(header.version)}; this bvs-mock reads version ${RECORDING_VERSION}` };
    const parsed = parseWith(Recording, value);
    if (!parsed.ok) return { ok: false, message: `${file}: ${parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}` };
    const tooDeep = deepBody(parsed.value);
    if (tooDeep !== undefined) return { ok: false, message: `${file}: ${tooDeep}` };
    recordings.push(parsed.value);
  }
  return { ok: true, recordings };
}

/** Where a recorded body (a delivery's, or an exchange's JSON text) is nested deeper than any body of the service, or undefined. */
function deepBody(recording: Recording): string | undefined {
  const bodies: Array<[string, unknown]> = recording.deliveries.map((delivery, index) => [`$.deliveries[${index}].body`, delivery.body]);
  recording.exchanges.forEach((exchange, index) => {
    for (const side of ['request_body', 'answer_body'] as const) {
      try {
        bodies.push([`$.exchanges[${index}].${side}`, JSON.parse(exchange[side])]);
      } catch {
        // Not JSON: text, kept as text.
      }
    }
  });
  for (const [where, body] of bodies) {
    const issue = jsonDepthIssue(body);
    if (issue !== undefined)
      return `${where}${issue.path.replace(/^\$/, '')}: nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays), deeper than any body of the service; this recording cannot be read`;
  }
  return undefined;
}

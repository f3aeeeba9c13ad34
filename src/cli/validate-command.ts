import { validatePayload } from '../contract';
import { printable } from './printable';
import { readPayloadFiles } from './read-payload-files';

/** Options of `bvs-mock validate`. */
export interface ValidateOptions {
  /** Schema name (component name or event type); without it, events are recognised by `type`. */
  schema?: string;
  /** Reject fields the contract does not list in what the service sends (by default they are tolerated, as a client must). */
  strict?: boolean;
  /** Where lines go; defaults to the process streams. */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/**
 * `bvs-mock validate FILE...`: checks every payload and prints one line per
 * payload, plus one line per issue with its JSON path. Returns the exit code:
 * 0 when all are valid, 1 when any is not (or cannot be read). Every line echoes
 * what a file holds (its name, its `type`, its keys, a parser's quote of it), so
 * each is printed with its control characters escaped ({@link printable}).
 */
export function validateCommand(files: string[], options: ValidateOptions = {}): number {
  const toOut = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const toErr = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  const out = (line: string) => toOut(printable(line));
  const err = (line: string) => toErr(printable(line));
  let failures = 0;
  for (const payload of files.flatMap(readPayloadFiles)) {
    if (!payload.ok) {
      failures += 1;
      err(`${payload.file}: ${payload.reason}`);
      continue;
    }
    const check = validatePayload(payload.body, options.schema, { strict: options.strict });
    if (check.ok) {
      out(`${payload.file}: valid ${describe(payload.body, check.schema)}`);
      continue;
    }
    failures += 1;
    err(`${payload.file}: invalid ${describe(payload.body, check.schema)} (${check.issues.length} problem${check.issues.length === 1 ? '' : 's'})`);
    for (const issue of check.issues) err(`  ${issue.path}: ${issue.message}`);
  }
  return failures === 0 ? 0 : 1;
}

function describe(body: unknown, schema: string): string {
  if (schema === 'WebhookEvent' && typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string') {
    return `${(body as { type: string }).type} event`;
  }
  return schema;
}

import { maskSecret } from '../delivery/sent-headers';
import type { CoreRequest } from './core-types';
import { mediaType } from './read-body';

/**
 * Bytes of a request body the journal keeps, parsed, at most: a validation's create body is well under 1 KiB, and
 * 5,000 kept entries (`--max-journal-entries`) of 4 KiB each stay a few tens of megabytes at worst (docs/fidelity.md row 82).
 */
const MAX_JOURNAL_BODY_BYTES = 4 * 1024;

/** Field names whose values the journal masks: a client's secret must not be readable through `GET /_mock/requests`. */
const SECRET_FIELD = /secret|password|token/i;

/**
 * The body fields of a journal entry: `body_bytes` when the request had a body, and `body`, parsed, when it was JSON
 * or a form of at most {@link MAX_JOURNAL_BODY_BYTES} (what `toHaveReceived({ body })` compares), secrets masked.
 */
export function journalBody(request: CoreRequest): { body_bytes?: number; body?: unknown } {
  const bytes = request.body.length;
  if (bytes === 0) return {};
  if (bytes > MAX_JOURNAL_BODY_BYTES) return { body_bytes: bytes };
  const type = mediaType(request);
  const text = request.body.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return { body_bytes: bytes, body: masked(Object.fromEntries(new URLSearchParams(text))) };
  if (type !== 'application/json' && !(type?.startsWith('application/') && type.endsWith('+json'))) return { body_bytes: bytes };
  try {
    return { body_bytes: bytes, body: masked(JSON.parse(text)) };
  } catch {
    return { body_bytes: bytes };
  }
}

/** The value with every string under a secret-like field name masked to its last 4 characters. */
function masked(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret ? maskSecret(value) : value;
  if (Array.isArray(value)) return value.map((item) => masked(item, secret));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item, secret || SECRET_FIELD.test(key))]));
  return value;
}

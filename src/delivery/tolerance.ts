import { createRandom, type Random } from '../engine';
import type { WebhookEvent } from '../schemas';

/**
 * Tolerance mode (`--tolerance`, a scenario's `tolerance: true`, the `tolerance` fault; docs/fidelity.md row
 * 89): a payload as the service may send it tomorrow. Every resource object (one with an `id`, and the formation)
 * gains a field the contract does not list, and every field whose spec row lists only the values seen gets a
 * value it does not list, so a client's reader proves tolerant in its own integration tests. The envelope
 * stays `type` plus one resource key. Choices depend only on the seed and the event's place in emission order.
 */
export function tolerantBody(body: WebhookEvent, seed: number, sequence: number): Record<string, unknown> {
  const random = createRandom(((seed ^ 0x7013) + Math.imul(sequence, 0x9e3779b1)) | 0);
  const copy = structuredClone(body) as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) if (key !== 'type') visit(value, random);
  return copy;
}

/**
 * An API answer's body in tolerance mode (docs/fidelity.md row 89): as {@link tolerantBody} does for a delivery's
 * resource, and the answer's root gains a field too when it is not a resource itself (the endpoints list, a run's
 * records). The records of a run are the source's own and stay as they are. Choices depend only on the seed and
 * `key` (the request's method and path), so reading the same resource twice draws the same fields.
 */
export function tolerantAnswer(body: unknown, seed: number, key: string): unknown {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  const random = createRandom(((seed ^ 0x7a51) + hash) | 0);
  const copy = structuredClone(body);
  visit(copy, random, null, OPAQUE_IN_ANSWERS);
  if (typeof copy === 'object' && copy !== null && !Array.isArray(copy)) {
    const root = copy as Record<string, unknown>;
    const unlisted = EXTRA_FIELDS.filter(([name]) => !(name in root));
    // A resource at the root gained its field in `visit`.
    if (unlisted.length > 0 && typeof root.id !== 'string' && !('constitution_date' in root)) {
      const [name, make] = unlisted[random.int(unlisted.length)]!;
      root[name] = make(random);
    }
  }
  return copy;
}

/** Fields of an API answer whose contents are left as they are: a run's records are the source's, any shape. */
const OPAQUE_IN_ANSWERS: ReadonlySet<string> = new Set(['records']);

/** Values the spec does not list, by the field and the kind of object it is in (its id's prefix). */
const UNLISTED: Array<{ field: string; holder: (object: Record<string, unknown>) => boolean; values: readonly string[] }> = [
  { field: 'severity', holder: prefixed('rlal_'), values: ['informational', 'severe'] },
  { field: 'status', holder: prefixed('evl_'), values: ['in_progress', 'completed'] },
  { field: 'category', holder: (object) => typeof object.tin === 'string' && typeof object.category === 'string', values: ['trust', 'public_body'] },
  { field: 'execution_type', holder: prefixed('dsrb_'), values: ['indirect'] },
  { field: 'request_type', holder: prefixed('dsrb_'), values: ['priority', 'bulk'] },
  { field: 'source', holder: (object) => 'constitution_date' in object, values: ['registry_extract'] },
  { field: 'status', holder: prefixed('irq_'), values: ['archived', 'expired'] },
];

/** Fields the contract does not list, one of which each resource object gains. */
const EXTRA_FIELDS: ReadonlyArray<readonly [string, (random: Random) => unknown]> = [
  ['risk_score', (random) => Math.round(random.next() * 1000) / 1000],
  ['labels', (random) => (random.int(2) === 0 ? [] : ['priority'])],
  ['metadata', () => ({ origin: 'api', version: 3 })],
  ['region_code', () => 'CL-RM'],
  ['review_due_at', () => '2030-01-01T00:00:00.000Z'],
];

const NONE: ReadonlySet<string> = new Set();

function prefixed(prefix: string) {
  return (object: Record<string, unknown>) => typeof object.id === 'string' && object.id.startsWith(prefix);
}

function visit(value: unknown, random: Random, key: string | null = null, opaque: ReadonlySet<string> = NONE): void {
  if (key !== null && opaque.has(key)) return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, random, null, opaque);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const object = value as Record<string, unknown>;
  for (const [name, item] of Object.entries(object)) visit(item, random, name, opaque);
  // A run's `data` holds one object per source beside its id: a field added there would read as a source.
  if (key === 'data') return;
  for (const { field, holder, values } of UNLISTED) {
    if (typeof object[field] === 'string' && holder(object)) object[field] = values[random.int(values.length)]!;
  }
  if (typeof object.id === 'string' || 'constitution_date' in object) {
    const [name, make] = EXTRA_FIELDS[random.int(EXTRA_FIELDS.length)]!;
    if (!(name in object)) object[name] = make(random);
  }
}

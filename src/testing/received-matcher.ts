import type { JournalEntry } from '../schemas';
import { bodyDifferences, bodyFieldCount, checkFilter, pathMatches, requestMatches, type JournalFilter, type RequestJournalReader } from './journal';

/**
 * What `toHaveReceived` expects of the client's requests: the criteria of a {@link JournalFilter} and how many
 * times (default: at least once).
 *
 * @example
 * await expect(mock).toHaveReceived({ operation: 'entity_validations.create', body: { entity_validation: { tin: '76086428-5' } }, times: 1 });
 */
export interface ReceivedExpectation extends JournalFilter {
  /** An exact number of requests, or bounds; default `{ atLeast: 1 }`. */
  times?: number | { atLeast?: number; atMost?: number };
}

/** What a matcher answers, as jest and vitest both read it. */
interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** Near misses a failure lists at most, and matching requests. */
const MAX_NEAR_MISSES = 3;
const MAX_LISTED_MATCHES = 5;

const EXPECTATION_KEYS = new Set(['operation', 'method', 'path', 'body', 'label', 'status', 'times']);

/** Where a matcher finds the journal: a running bvs-mock, or its control client. */
function journalOf(received: unknown): RequestJournalReader {
  const journal = (received as { journal?: { requests?: unknown } } | null)?.journal;
  if (typeof journal?.requests !== 'function')
    throw new TypeError(`toHaveReceived: expect(...) takes what startBvsMock answers (or its control client), with a journal; got ${describeValue(received)}`);
  return journal as RequestJournalReader;
}

/** `expect(mock).toHaveReceived(expectation)`: the journal holds as many requests meeting the criteria as `times` asks. */
export async function toHaveReceived(received: unknown, expectation: ReceivedExpectation): Promise<MatcherResult> {
  const journal = journalOf(received);
  if (typeof expectation !== 'object' || expectation === null)
    throw new TypeError(`toHaveReceived: takes an object of criteria, got ${describeValue(expectation)}`);
  checkFilter(expectation, EXPECTATION_KEYS);
  const { times, ...filter } = expectation;
  const bounds = boundsOf(times);
  const matching = await journal.requests(filter);
  const pass = matching.length >= bounds.atLeast && matching.length <= bounds.atMost;
  const wanted = `${describeCriteria(filter)} ${describeTimes(bounds)}`;
  if (pass)
    return {
      pass,
      message: () => `expected the client not to have sent ${wanted}, but it sent ${countOf(matching.length)}:\n${listMatches(matching)}`,
    };
  // The near misses are read only on failure: the whole journal, as the criteria may be what differs.
  const all = matching.length >= bounds.atLeast ? [] : await journal.requests({});
  return {
    pass,
    message: () => {
      const lines = [`expected the client to have sent ${wanted}, but it sent ${matching.length === 0 ? 'none' : countOf(matching.length)}.`];
      if (matching.length > 0) lines.push(`Matching requests:\n${listMatches(matching)}`);
      if (matching.length < bounds.atLeast) lines.push(nearMisses(filter, all));
      return lines.join('\n');
    },
  };
}

function boundsOf(times: ReceivedExpectation['times']): { atLeast: number; atMost: number } {
  const where = 'toHaveReceived: times';
  const count = (value: unknown, name: string) => {
    if (!Number.isInteger(value) || (value as number) < 0)
      throw new TypeError(`${where}${name} must be a whole number of requests, 0 or more; got ${describeValue(value)}`);
    return value as number;
  };
  if (times === undefined) return { atLeast: 1, atMost: Infinity };
  if (typeof times === 'number') return { atLeast: count(times, ''), atMost: times };
  if (typeof times !== 'object' || times === null) throw new TypeError(`${where} must be a number or { atLeast, atMost }; got ${describeValue(times)}`);
  for (const key of Object.keys(times))
    if (key !== 'atLeast' && key !== 'atMost') throw new TypeError(`${where} has an unknown key "${key}": it takes atLeast, atMost`);
  const atLeast = times.atLeast === undefined ? 0 : count(times.atLeast, '.atLeast');
  const atMost = times.atMost === undefined ? Infinity : count(times.atMost, '.atMost');
  if (atLeast > atMost) throw new TypeError(`${where}: atLeast (${atLeast}) is above atMost (${atMost}): no count meets both`);
  return { atLeast, atMost };
}

function describeTimes({ atLeast, atMost }: { atLeast: number; atMost: number }): string {
  if (atLeast === atMost) return atLeast === 0 ? 'no request' : `exactly ${countOf(atLeast)}`;
  if (atMost === Infinity) return `at least ${countOf(atLeast)}`;
  if (atLeast === 0) return `at most ${countOf(atMost)}`;
  return `from ${atLeast} to ${countOf(atMost)}`;
}

function countOf(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/** The criteria in words: `POST /api/v2/entity_validations with body fields {…}, labelled "…"`. */
function describeCriteria(filter: JournalFilter): string {
  const parts: string[] = [];
  const request = [filter.method?.toUpperCase(), filter.path === undefined ? undefined : String(filter.path)].filter((part) => part !== undefined).join(' ');
  if (filter.operation !== undefined) parts.push(`${filter.operation}${request === '' ? '' : ` (${request})`}`);
  else parts.push(request === '' ? 'a request' : request);
  if (filter.body !== undefined) parts.push(`with body fields ${show(filter.body)}`);
  if (filter.status !== undefined) parts.push(`answered ${filter.status}`);
  if (filter.label !== undefined) parts.push(`labelled ${JSON.stringify(filter.label)}`);
  return parts.join(', ');
}

function describeRequest(entry: JournalEntry): string {
  const label = entry.label === undefined ? 'no label' : `label ${JSON.stringify(entry.label)}`;
  return `${entry.method} ${entry.path} → ${entry.status} (${entry.operation ?? 'no operation'}, ${label}, ${entry.id} at ${entry.at})`;
}

function listMatches(matching: readonly JournalEntry[]): string {
  const listed = matching.slice(-MAX_LISTED_MATCHES).map((entry) => `  ${describeRequest(entry)}`);
  const more = matching.length - listed.length;
  return [...(more > 0 ? [`  (${more} earlier not listed)`] : []), ...listed].join('\n');
}

/** How a request differs from the criteria, one line each, and its rank: request criteria met first, then body fields, then the rest. */
function differencesOf(filter: JournalFilter, entry: JournalEntry): { lines: string[]; rank: [number, number, number] } {
  const lines: string[] = [];
  const rank: [number, number, number] = [0, 0, 0];
  const check = (met: boolean, tier: 0 | 2, line: string) => (met ? (rank[tier] += 1) : lines.push(line));
  if (filter.operation !== undefined)
    check(entry.operation === filter.operation, 0, `operation: expected ${filter.operation}, got ${entry.operation ?? 'none (no operation matched)'}`);
  if (filter.method !== undefined)
    check(entry.method.toUpperCase() === filter.method.toUpperCase(), 0, `method: expected ${filter.method.toUpperCase()}, got ${entry.method}`);
  if (filter.path !== undefined) check(pathMatches(filter.path, entry.path), 0, `path: expected ${String(filter.path)}, got ${entry.path}`);
  if (filter.body !== undefined) {
    const fields = bodyFieldCount(filter.body);
    if (entry.body === undefined) {
      lines.push(entry.body_bytes === undefined ? 'body: it had none' : `body: not kept (${entry.body_bytes} bytes: over 4 KiB, or neither JSON nor a form)`);
    } else {
      const differences = bodyDifferences(filter.body, entry.body);
      rank[1] = fields - differences.length;
      for (const difference of differences)
        lines.push(
          `${difference.path}: expected ${show(difference.expected)}, ${difference.actual === undefined ? 'got nothing there' : `got ${show(difference.actual)}`}`,
        );
    }
  }
  if (filter.status !== undefined) check(entry.status === filter.status, 2, `status: expected ${filter.status}, got ${entry.status}`);
  if (filter.label !== undefined)
    check(
      entry.label === filter.label,
      2,
      `label: expected ${JSON.stringify(filter.label)}, got ${entry.label === undefined ? 'none' : JSON.stringify(entry.label)}`,
    );
  return { lines, rank };
}

/** The closest requests that did not match, each with how it differed; or why none came close. */
function nearMisses(filter: JournalFilter, all: readonly JournalEntry[]): string {
  const candidates = all
    .filter((entry) => !requestMatches(filter, entry))
    .map((entry, index) => ({ entry, index, ...differencesOf(filter, entry) }))
    .filter(({ rank }) => rank[0] + rank[1] + rank[2] > 0);
  if (candidates.length === 0) {
    const last = all.slice(-MAX_NEAR_MISSES).map((entry) => `  ${describeRequest(entry)}`);
    return all.length === 0
      ? 'The journal holds no request of the client.'
      : `None of the ${all.length} requests in the journal meets any of the criteria; the last ones:\n${last.join('\n')}`;
  }
  // Most criteria met first; among equals, the latest (the one a test most likely meant).
  candidates.sort((a, b) => b.rank[0] - a.rank[0] || b.rank[1] - a.rank[1] || b.rank[2] - a.rank[2] || b.index - a.index);
  const closest = candidates.slice(0, MAX_NEAR_MISSES);
  const blocks = closest.map(({ entry, lines }, index) => `  ${index + 1}. ${describeRequest(entry)}\n${lines.map((line) => `       ${line}`).join('\n')}`);
  return `Closest of the ${all.length} requests in the journal (near misses):\n${blocks.join('\n')}`;
}

function show(value: unknown): string {
  if (value instanceof RegExp) return String(value);
  if (typeof value === 'object' && value !== null && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function')
    return String((value as { toString(): string }).toString());
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof RegExp ? String(item) : item));
  return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`;
  return `${typeof value} ${show(value)}`;
}

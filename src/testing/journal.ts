import type { JournalEntry } from '../schemas';
import { journalEntryMatches, type JournalServerFilter } from '../schemas/journal-filter';

/**
 * Which requests of the journal to take (`mock.journal.requests(filter)`): every criterion given must hold.
 * `operation`, `method`, a string `path`, `label` and `status` are applied by the server (`GET /_mock/requests`),
 * so a test on a shared instance reads only its own requests; a RegExp `path` and `body` are applied here.
 *
 * @example
 * await mock.journal.requests({ path: '/api/v2/entity_validations/{id}', method: 'GET', label: 'polls once' });
 */
export interface JournalFilter {
  /** The operationId, as the journal's `operation` shows it (`entity_validations.create`). */
  operation?: string;
  /** The HTTP method, any case. */
  method?: string;
  /** The exact path, a template whose `{name}` segments each stand for one segment, or a RegExp tested on the path. */
  path?: string | RegExp;
  /** Fields the parsed body must have, compared deeply: objects may have more fields, arrays hold as many items; a RegExp tests a string, an asymmetric matcher (`expect.any(String)`) is asked. */
  body?: Record<string, unknown>;
  /** The label the request carried (`x-bvs-mock-label`: bvs-mock/testing sends the current test's name). */
  label?: string;
  /** The status it was answered with. */
  status?: number;
}

/** One way a request's body differs from the fields asked for: at a JSON path, what was asked and what it had. */
interface BodyDifference {
  path: string;
  expected: unknown;
  /** What the body had there; undefined when it had nothing there. */
  actual: unknown;
}

/** Something that reads pages of the journal: the control client's `requests`. */
type JournalPages = (query: JournalServerFilter & { cursor?: string; limit?: number }) => Promise<{ requests: JournalEntry[]; next_cursor: string | null }>;

/**
 * The request journal of a running bvs-mock as a test reads it (`mock.journal`, `control.journal`): every
 * request its client sent, oldest first, filtered, with every page followed.
 *
 * @example
 * const creates = await mock.journal.requests({ operation: 'createEntityValidation', body: { tin: '76086428-5' } });
 */
export interface RequestJournalReader {
  /** The requests that meet `filter` (all of them without one), oldest first, every page of the journal followed. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
}

/** {@link RequestJournalReader} over the control client's pages. */
export class JournalReader implements RequestJournalReader {
  constructor(private readonly pages: JournalPages) {}

  async requests(filter: JournalFilter = {}): Promise<JournalEntry[]> {
    checkFilter(filter);
    const server: JournalServerFilter = {};
    if (filter.operation !== undefined) server.operation = filter.operation;
    if (filter.method !== undefined) server.method = filter.method;
    if (typeof filter.path === 'string') server.path = filter.path;
    if (filter.label !== undefined) server.label = filter.label;
    if (filter.status !== undefined) server.status = filter.status;
    const found: JournalEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.pages({ ...server, limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
      for (const entry of page.requests) if (requestMatches(filter, entry)) found.push(entry);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return found;
  }
}

const FILTER_KEYS = new Set(['operation', 'method', 'path', 'body', 'label', 'status']);

/** Refuses a filter that cannot mean what its writer meant: an unknown key (a typo would match everything), or a value of the wrong kind. */
export function checkFilter(filter: object, allowed: ReadonlySet<string> = FILTER_KEYS): void {
  const where = 'bvs-mock: the journal filter';
  for (const key of Object.keys(filter))
    if (!allowed.has(key)) throw new TypeError(`${where} has an unknown key "${key}": it takes ${[...allowed].join(', ')}`);
  const given = filter as JournalFilter;
  for (const key of ['operation', 'method', 'label'] as const)
    if (given[key] !== undefined && typeof given[key] !== 'string') throw new TypeError(`${where}: ${key} must be a string, got ${typeof given[key]}`);
  if (given.path !== undefined && !(given.path instanceof RegExp) && (typeof given.path !== 'string' || !given.path.startsWith('/')))
    throw new TypeError(`${where}: path must be a path starting with / (exact or with {name} segments) or a RegExp, got ${JSON.stringify(given.path)}`);
  if (given.status !== undefined && !(Number.isInteger(given.status) && given.status >= 100 && given.status <= 599))
    throw new TypeError(`${where}: status must be an HTTP status from 100 to 599, got ${JSON.stringify(given.status)}`);
  if (given.body !== undefined && (typeof given.body !== 'object' || given.body === null || Array.isArray(given.body)))
    throw new TypeError(`${where}: body must be an object of the fields the body must have, got ${JSON.stringify(given.body)}`);
}

/** Whether the path criterion holds: exact, template or RegExp. */
export function pathMatches(path: string | RegExp, actual: string): boolean {
  if (path instanceof RegExp) {
    path.lastIndex = 0;
    return path.test(actual);
  }
  return journalEntryMatches({ path }, { method: '', path: actual, operation: null, status: 0 });
}

/** Whether the entry meets every criterion of the filter. */
export function requestMatches(filter: JournalFilter, entry: JournalEntry): boolean {
  const { path, body, ...rest } = filter;
  if (!journalEntryMatches(rest, entry)) return false;
  if (path !== undefined && !pathMatches(path, entry.path)) return false;
  return body === undefined || (entry.body !== undefined && bodyDifferences(body, entry.body).length === 0);
}

/** Where `actual` differs from the fields `expected` asks for, at JSON paths from `$`. */
export function bodyDifferences(expected: unknown, actual: unknown, path = '$'): BodyDifference[] {
  if (isAsymmetricMatcher(expected)) return expected.asymmetricMatch(actual) ? [] : [{ path, expected, actual }];
  if (expected instanceof RegExp)
    return typeof actual === 'string' && new RegExp(expected.source, expected.flags.replace('g', '')).test(actual) ? [] : [{ path, expected, actual }];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path, expected, actual }];
    return expected.flatMap((item, index) => bodyDifferences(item, actual[index], `${path}[${index}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [{ path, expected, actual }];
    return Object.entries(expected).flatMap(([key, item]) =>
      bodyDifferences(item, (actual as Record<string, unknown>)[key], `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`),
    );
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual }];
}

/** The body criteria a filter gives, leaf by leaf: what a near miss is ranked by. */
export function bodyFieldCount(expected: unknown): number {
  if (isAsymmetricMatcher(expected) || expected instanceof RegExp) return 1;
  if (Array.isArray(expected))
    return Math.max(
      1,
      expected.reduce((sum: number, item) => sum + bodyFieldCount(item), 0),
    );
  if (typeof expected === 'object' && expected !== null)
    return Math.max(
      1,
      Object.values(expected).reduce((sum: number, item) => sum + bodyFieldCount(item), 0),
    );
  return 1;
}

function isAsymmetricMatcher(value: unknown): value is { asymmetricMatch(actual: unknown): boolean } {
  return typeof value === 'object' && value !== null && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';
}

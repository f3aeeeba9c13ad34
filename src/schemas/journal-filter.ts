/**
 * Which journal entries a filter takes (`GET /_mock/requests?operation=&method=&path=&label=&status=`, and
 * `mock.journal.requests(filter)` of bvs-mock/testing, which adds what a query string cannot carry: a RegExp path
 * and body fields). Shared by the server and the testing library, so both read a path template the same way.
 */

/** The filters `GET /_mock/requests` applies itself, as its query string carries them. */
export interface JournalServerFilter {
  operation?: string;
  method?: string;
  /** An exact path, or a template whose `{name}` segments each stand for one segment: `/api/v2/entity_validations/{id}`. */
  path?: string;
  label?: string;
  status?: number;
}

/** What a filter reads of an entry. */
interface FilteredEntry {
  method: string;
  path: string;
  operation: string | null;
  status: number;
  label?: string;
}

const TEMPLATE_SEGMENT = /^\{[^{}/]+\}$/;

/** Whether `template` (an exact path, or one with `{name}` segments) names `path`. */
function pathTemplateMatches(template: string, path: string): boolean {
  if (!template.includes('{')) return template === path;
  const wanted = template.split('/');
  const given = path.split('/');
  if (wanted.length !== given.length) return false;
  return wanted.every((segment, index) => (TEMPLATE_SEGMENT.test(segment) ? given[index] !== '' : segment === given[index]));
}

/** Whether the entry meets every filter given (none given: every entry). */
export function journalEntryMatches(filter: JournalServerFilter, entry: FilteredEntry): boolean {
  if (filter.operation !== undefined && entry.operation !== filter.operation) return false;
  if (filter.method !== undefined && entry.method.toUpperCase() !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && !pathTemplateMatches(filter.path, entry.path)) return false;
  if (filter.label !== undefined && entry.label !== filter.label) return false;
  if (filter.status !== undefined && entry.status !== filter.status) return false;
  return true;
}

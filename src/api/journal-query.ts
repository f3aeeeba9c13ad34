import type { JournalServerFilter } from '../schemas/journal-filter';
import { problems } from './api-problem';

/**
 * The filters of `GET /_mock/requests` from its query string (operation, method, path or path template, label,
 * status); a bad value gets a 422 naming the parameter.
 */
export function readJournalFilter(query: URLSearchParams): JournalServerFilter {
  const filter: JournalServerFilter = {};
  const issues = [];
  const text = (name: string) => query.get(name) ?? undefined;
  filter.operation = text('operation');
  filter.label = text('label');
  const method = text('method');
  if (method !== undefined) {
    if (/^[A-Za-z]{1,20}$/.test(method)) filter.method = method;
    else issues.push({ path: '$query.method', code: 'invalid_value', message: `must be an HTTP method like GET or POST, got ${JSON.stringify(method)}` });
  }
  const path = text('path');
  if (path !== undefined) {
    if (path.startsWith('/')) filter.path = path;
    else
      issues.push({
        path: '$query.path',
        code: 'invalid_value',
        message: `must be a path starting with /, exact or with {name} segments (/api/v2/entity_validations/{id}), got ${JSON.stringify(path)}`,
      });
  }
  const status = text('status');
  if (status !== undefined) {
    const value = /^\d{3}$/.test(status) ? Number(status) : NaN;
    if (value >= 100 && value <= 599) filter.status = value;
    else issues.push({ path: '$query.status', code: 'invalid_value', message: `must be an HTTP status from 100 to 599, got ${JSON.stringify(status)}` });
  }
  if (issues.length > 0) throw problems.validationFailed(issues, 'query');
  for (const key of Object.keys(filter) as Array<keyof JournalServerFilter>) if (filter[key] === undefined) delete filter[key];
  return filter;
}

import { REPORT_FORMATS, REPORT_MEDIA_TYPES, buildContractReport, renderReport, type ReportFormat } from '../../contract';
import type { World } from '../../world/world';
import { DOCUMENTED_API_OPERATIONS, EXTENSION_API_OPERATIONS } from './api-operations';
import { ContractReport, ReportQuery, z } from '../../schemas';
import { problems } from '../api-problem';
import type { Route } from '../router';

/**
 * `GET /_mock/report[?format=json|markdown|junit]`: the contract report of the run so far
 * (src/contract/contract-report.ts), as JSON, Markdown for a CI job page, or JUnit XML that CI systems
 * show as tests (src/contract/report-formats.ts).
 */
export const reportRoute = {
  method: 'GET',
  pattern: '/_mock/report',
  operation: 'control.report',
  access: { kind: 'control' },
  document: {
    tags: ['Journal and report'],
    summary: 'The contract report of the run so far',
    description:
      "Operations and event types exercised and not, the client's contract violations with their JSON paths, and its receivers' answers (outside 2xx, retried, slower than a second). As JSON, Markdown for a CI job page, or JUnit XML with a failing case per violation and per receiver finding (docs/fidelity.md row 83).",
    query: ReportQuery,
    answer: {
      status: 200,
      description: 'The report.',
      schema: ContractReport,
      otherContent: { 'text/markdown': z.string(), 'application/xml': z.string() },
    },
    errors: ['validation_failed'],
  },
  handle(context) {
    const asked = context.request.query.get('format') ?? 'json';
    if (!(REPORT_FORMATS as readonly string[]).includes(asked)) {
      throw problems.validationFailed(
        [{ path: '$query.format', code: 'invalid_value', message: `must be one of ${REPORT_FORMATS.join(', ')}, got ${JSON.stringify(asked)}` }],
        'query',
      );
    }
    const format = asked as ReportFormat;
    return {
      status: 200,
      headers: { 'content-type': REPORT_MEDIA_TYPES[format] },
      body: renderReport(contractReportOf(context.world), format, context.world.clock.nowDate()),
    };
  },
} as const satisfies Route;

/** The contract report of what one mock has seen so far (`GET /_mock/report`, `serve --report`). */
export function contractReportOf(world: World): ContractReport {
  return buildContractReport({ ...world, operations: DOCUMENTED_API_OPERATIONS, extensions: EXTENSION_API_OPERATIONS });
}

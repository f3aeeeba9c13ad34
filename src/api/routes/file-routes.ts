import type { Engine, FileKind } from '../../engine';
import type * as Reports from '../../reports';
import { problems } from '../api-problem';
import type { Route } from '../router';

const FOLDERS: Record<string, FileKind> = {
  reports: 'consolidated_report',
  legal_reports: 'legal_report',
  documents: 'document',
};

/**
 * The PDFs behind pre-signed URLs: consolidated reports, legal reports and
 * formation documents (spec §2, §6). A URL works for 24 simulated hours, then
 * answers 410 `url_expired`, naming the reads that give a fresh one (rows 18, 77).
 * The path names the organization (`FILE_PATHS`), the signature covers it, and
 * the file is looked up in that organization only.
 */
export const fileRoutes: Route[] = Object.entries(FOLDERS).map(([folder, kind]) => ({
  method: 'GET' as const,
  pattern: `/_mock/files/:organization/${folder}/:file`,
  operation: `download_${kind}`,
  access: { kind: 'public' as const },
  async handle(context) {
    const file = context.params.file!;
    const organizationId = context.params.organization!;
    const { signer, clock, engine } = context.world;
    const check = signer.check(context.request.path, context.request.query.get('expires'), context.request.query.get('signature'), clock.now());
    if (!check.ok) {
      if (check.reason === 'expired') throw problems.urlExpired(new Date(check.expiredAt!).toISOString(), refetchPaths(engine, organizationId, kind, file));
      throw problems.badSignature();
    }
    const id = file.replace(/\.pdf$/, '');
    const source = file.endsWith('.pdf') ? engine.lookupFile(organizationId, kind, id) : undefined;
    if (!source) throw problems.notFound('file', file);
    // The PDF library loads with the first download, not at start (start-up time, bench:api).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { renderConsolidatedReportPdf, renderDocumentPdf, renderLegalReportPdf } = require('../../reports') as typeof Reports;
    const bytes =
      source.kind === 'consolidated_report'
        ? await renderConsolidatedReportPdf(source)
        : source.kind === 'legal_report'
          ? await renderLegalReportPdf(source)
          : await renderDocumentPdf(source);
    return {
      status: 200,
      headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${file}"`, 'cache-control': 'private, max-age=0' },
      body: bytes,
    };
  },
}));

/** The reads that sign an expired file anew: the validation or the batch for its report, the formation for its legal report and documents. */
function refetchPaths(engine: Engine, organizationId: string, kind: FileKind, file: string): string[] {
  const id = file.replace(/\.pdf$/, '');
  const source = file.endsWith('.pdf') ? engine.lookupFile(organizationId, kind, id) : undefined;
  if (source === undefined) return [];
  if (source.kind === 'consolidated_report')
    return [`/api/v2/entity_validations/${source.validation.id}`, `/api/v2/data_source_run_batches/${source.batch.id}`];
  const validationId = source.kind === 'legal_report' ? source.formation.entity_validation_id : source.validationId;
  return [`/api/v2/entity_validations/${validationId}/formation`];
}

import type { DataSourceRunBatch, EntityValidation, Formation } from '../schemas';
import { OrganizationState } from './organization-state';
import { renderBatch } from './render-batch';
import { renderFormation } from './render-formation';
import { renderValidation } from './render-validation';

/** What a file behind a pre-signed URL is made from. */
export type FileSource =
  | { kind: 'consolidated_report'; validation: EntityValidation; batch: DataSourceRunBatch; generatedAt: string }
  | { kind: 'legal_report'; formation: Formation; generatedAt: string }
  | { kind: 'document'; id: string; validationId: string; title: string; lines: string[]; generatedAt: string };

/** The kinds of file, as they appear in `FILE_PATHS`. */
export type FileKind = FileSource['kind'];

/**
 * Finds the data of a file in the organization its pre-signed path names. The
 * signature covers that path, organization included, so a URL only ever opens
 * a file of the organization it was issued for (docs/fidelity.md).
 */
export function lookupFile(state: OrganizationState, kind: FileKind, id: string): FileSource | undefined {
  if (kind === 'consolidated_report') {
    const batch = state.batches.get(id);
    if (!batch || batch.reportGeneratedAt === null) return undefined;
    const validation = OrganizationState.must(state.validations, batch.validationId);
    return { kind, validation: renderValidation(state, validation), batch: renderBatch(state, batch), generatedAt: batch.reportGeneratedAt };
  }
  if (kind === 'legal_report') {
    const batch = state.batches.get(id);
    const formation = batch && state.formations.get(batch.validationId)?.find((candidate) => candidate.batchId === id);
    if (!formation) return undefined;
    return { kind, formation: renderFormation(state, formation), generatedAt: formation.createdAt };
  }
  for (const formations of state.formations.values()) {
    for (const formation of formations) {
      const document = formation.documents.find((candidate) => candidate.id === id);
      if (!document) continue;
      const validation = OrganizationState.must(state.validations, formation.validationId);
      return {
        kind,
        id,
        validationId: validation.id,
        title: `${document.label}: ${validation.name}`,
        lines: [
          `Document ${document.name} (${document.label})`,
          `Company: ${validation.name}, TIN ${validation.tin}`,
          `Registry code (CVE): ${document.cve}`,
          `Source: ${document.source}`,
          `Constitution date: ${formation.script.constitution_date}`,
          `Company type: ${formation.script.company_type}`,
          `Activity: ${formation.script.activity_description}`,
        ],
        generatedAt: document.createdAt,
      };
    }
  }
  return undefined;
}

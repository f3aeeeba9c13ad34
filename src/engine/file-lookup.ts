import type { DataSourceRunBatch, EntityValidation, Formation } from '../schemas';
import { OrganizationState } from './organization-state';
import { readReportTree } from './records';
import { renderFormation } from './render-formation';

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
    // `dsrb_…_N`: the batch and the generation of its report; each serves the tree as it was then (docs/fidelity.md row 122).
    const named = /^(.+)_(\d{1,6})$/.exec(id);
    const batch = named === null ? undefined : state.batches.get(named[1]!);
    const kept = batch?.reports?.find((report) => report.edition === Number(named![2]));
    if (!kept) return undefined;
    const tree = readReportTree(kept.tree);
    return { kind, validation: tree.validation, batch: tree.batch, generatedAt: kept.generatedAt };
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

import type { Formation } from '../schemas';
import { OrganizationState } from './organization-state';
import type { FormationRecord } from './records';

const { must } = OrganizationState;

/** The formation (societary information) of one play (spec §2, Formation). */
export function renderFormation(state: OrganizationState, formation: FormationRecord, reissueAt?: number): Formation {
  const validation = must(state.validations, formation.validationId);
  const script = formation.script;
  return {
    entity_validation_id: validation.id,
    data_source_run_batch_id: formation.batchId,
    tin: validation.tin,
    name: validation.name,
    fantasy_name: script.fantasy_name,
    country: validation.country,
    source: 'constitution',
    company_type: script.company_type,
    constitution_date: `${script.constitution_date}T00:00:00.000Z`,
    registry: script.registry,
    duration: script.duration,
    activity_description: script.activity_description,
    requires_manual_review: script.requires_manual_review,
    manual_review_codes: [...script.manual_review_codes],
    administration: { ...script.administration },
    equity: { ...script.equity },
    stakeholders: script.stakeholders.map((stakeholder) => {
      const partner = must(state.validations, must(formation.stakeholderIds, stakeholder.tin));
      return {
        entity_validation_id: partner.id,
        display_name: partner.displayName,
        tin: partner.tin,
        category: partner.category,
        roles: [...stakeholder.roles],
        ubo: stakeholder.ubo,
        participation: stakeholder.participation,
        shares: stakeholder.shares,
        amount: stakeholder.amount,
        faculties: stakeholder.faculties.map((faculty) => ({ ...faculty })),
      };
    }),
    documents: formation.documents.map((document) => ({
      id: document.id,
      name: document.name,
      label: document.label,
      source: document.source,
      cve: document.cve,
      url: state.signedUrl(document.file, reissueAt),
      created_at: document.createdAt,
    })),
    legal_report_url: state.signedUrl(formation.legalReport, reissueAt),
  };
}

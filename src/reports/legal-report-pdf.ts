import type { Formation, FormationStakeholder } from '../schemas';
import { formatDate, formatNumber, formatPercent, formatTimestamp, listOrNone, yesNo } from './report-format';
import { TextFlow } from './text-flow';

/** What `renderLegalReportPdf` needs. */
export interface LegalReportInput {
  /** The formation the report describes (spec §2, Formation). */
  formation: Formation;
  /** ISO timestamp from the simulated clock; printed and used as the PDF dates. */
  generatedAt: string;
}

/**
 * Renders the legal report of a formation as PDF bytes: the company's
 * societary data, its administration and equity, the unified stakeholder list,
 * its documents and whether it needs a manual review (spec §2, Formation; the
 * report is what `legal_report_url` serves, spec §6 rule 2). The same input
 * gives the same bytes.
 *
 * @example
 * const pdf = await renderLegalReportPdf({ formation, generatedAt: clock.iso() });
 */
export async function renderLegalReportPdf(input: LegalReportInput): Promise<Uint8Array> {
  const { formation: f, generatedAt } = input;
  const flow = await TextFlow.create({
    title: `Legal report: ${f.name}`,
    subject: `Legal report of ${f.name} (TIN ${f.tin}), entity validation ${f.entity_validation_id}, data source run batch ${f.data_source_run_batch_id}`,
    generatedAt,
    footer: `Legal report - ${f.name} - ${f.tin}`,
  });

  flow.title('Legal report');
  flow.paragraph(f.name, 'bold');
  flow.space(6);
  flow.fields([
    ['Company name', f.name],
    ['Fantasy name', f.fantasy_name ?? '-'],
    ['TIN', f.tin],
    ['Country', f.country],
    ['Company type', f.company_type],
    ['Constitution date', formatDate(f.constitution_date)],
    ['Registry', f.registry],
    ['Duration', f.duration],
    ['Activity', f.activity_description],
    ['Source', f.source],
    ['Validation id', f.entity_validation_id],
    ['Batch id', f.data_source_run_batch_id],
    ['Generated at', formatTimestamp(generatedAt)],
  ]);

  flow.heading('Administration and equity');
  flow.fields(
    [
      ['Administration', f.administration.administration_type],
      ['Simple signature', yesNo(f.administration.simple_signature)],
      ['Equity', `${formatNumber(f.equity.total_amount)} ${f.equity.currency}`],
      ['Total shares', formatNumber(f.equity.total_shares)],
      ['Shares type', f.equity.shares_type],
    ],
    { columns: 2 },
  );

  flow.heading('Stakeholders');
  flow.table(
    [
      { header: 'Name', width: 1.5 },
      { header: 'TIN', width: 1.05 },
      { header: 'Roles', width: 1.35 },
      { header: 'UBO', width: 0.45 },
      { header: 'Particip.', width: 0.75 },
      { header: 'Shares', width: 0.75 },
      { header: `Amount (${f.equity.currency})`, width: 1.05 },
      { header: 'Faculties present', width: 1.6 },
    ],
    f.stakeholders.map(stakeholderRow),
    'No stakeholders.',
  );

  flow.heading('Documents');
  flow.table(
    [
      { header: 'Name', width: 1.6 },
      { header: 'Label', width: 1.6 },
      { header: 'CVE', width: 1.4 },
    ],
    f.documents.map((doc) => [doc.name, doc.label, doc.cve]),
    'No documents.',
  );

  flow.heading('Manual review');
  flow.fields([
    ['Requires manual review', yesNo(f.requires_manual_review)],
    ['Review codes', listOrNone(f.manual_review_codes)],
  ]);
  return flow.save();
}

function stakeholderRow(s: FormationStakeholder): string[] {
  // Roles are wire values (`general_manager`); spaces let them wrap inside the narrow column.
  const roles = s.roles.map((role) => role.replace(/_/g, ' '));
  const faculties = s.faculties.filter((faculty) => faculty.present).map((faculty) => `${faculty.code} ${faculty.key.replace(/_/g, ' ')}`);
  return [
    s.display_name,
    s.tin,
    listOrNone(roles),
    yesNo(s.ubo),
    formatPercent(s.participation),
    formatNumber(s.shares),
    formatNumber(s.amount),
    listOrNone(faculties),
  ];
}

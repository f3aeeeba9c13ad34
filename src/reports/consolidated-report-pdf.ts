import { AlertSeverity, type DataSourceRunBatch, type EntityValidation } from '../schemas';
import { formatTimestamp, yesNo } from './report-format';
import { TextFlow } from './text-flow';
import { flattenValidationTree, type ValidationTreeNode } from './validation-tree';

/** What `renderConsolidatedReportPdf` needs. */
export interface ConsolidatedReportInput {
  /** The main entity's validation; its `related_entities` give partners their full identity. */
  validation: EntityValidation;
  /** The main batch, with its `child_batches` (the whole tree). */
  batch: DataSourceRunBatch;
  /** ISO timestamp from the simulated clock; printed and used as the PDF dates. */
  generatedAt: string;
}

/** Severities from the most to the least serious, so the summary reads top down. */
const SEVERITIES_DESCENDING = [...AlertSeverity.options].reverse();

/**
 * Renders the consolidated report of a validation tree as PDF bytes. It covers
 * the whole tree (spec §6 rule 5): the main entity, then every partner batch
 * depth first, each with its data source runs and its own raised alerts (an
 * alert belongs to the batch that contains it, spec §2), and a summary of all
 * alerts of the tree (main batch plus every child, spec §6 rule 4). The same
 * input gives the same bytes.
 *
 * @example
 * const pdf = await renderConsolidatedReportPdf({ validation, batch: validation.data_source_run_batches[0]!, generatedAt: clock.iso() });
 */
export async function renderConsolidatedReportPdf(input: ConsolidatedReportInput): Promise<Uint8Array> {
  const { validation, batch, generatedAt } = input;
  const nodes = flattenValidationTree(validation, batch);
  const flow = await TextFlow.create({
    title: `Consolidated report: ${validation.display_name}`,
    subject: `Consolidated report of entity validation ${validation.id}, data source run batch ${batch.id} and its ${nodes.length - 1} partner batches`,
    generatedAt,
    footer: `Consolidated report - ${validation.display_name} - ${batch.id}`,
  });

  flow.title('Consolidated report');
  flow.paragraph(validation.display_name, 'bold');
  flow.space(6);
  flow.fields([
    ['Display name', validation.display_name],
    ['TIN', validation.tin],
    ['Country', validation.country],
    ['Category', validation.category],
    ['Validation id', validation.id],
    ['Batch id', batch.id],
    ['Generated at', formatTimestamp(generatedAt)],
    ['Partner batches', String(nodes.length - 1)],
  ]);

  for (const node of nodes) writeNode(flow, validation, node);
  writeSummary(flow, nodes);
  return flow.save();
}

function writeNode(flow: TextFlow, validation: EntityValidation, node: ValidationTreeNode): void {
  const { batch, identity } = node;
  // Pairs print side by side: ids share a line, and so do the batch's state and its last update.
  const ids: Array<[string, string]> = [
    ['Validation id', batch.entity_validation_id],
    ['Batch id', batch.id],
  ];
  const state: Array<[string, string]> = [
    ['Runs succeeded', yesNo(batch.runs_succeeded)],
    ['Updated at', formatTimestamp(batch.updated_at)],
  ];
  const layout = { columns: 2, compact: true };
  if (node.label === null) {
    flow.heading(`Main entity: ${validation.display_name}`);
    flow.fields([...ids, ['TIN', batch.tin], ['Created at', formatTimestamp(batch.created_at)], ...state], layout);
  } else if (identity !== null) {
    flow.heading(`Partner ${node.label}: ${identity.display_name}`);
    const who: Array<[string, string]> = [
      ['TIN', identity.tin],
      ['Country', identity.country],
      ['Category', identity.category],
      ['Risk level', identity.risk_level ?? 'not assessed'],
    ];
    flow.fields([...who, ...ids, ...state], layout);
  } else {
    // The child batch carries the tin only (spec §6 rule 4); without a related entity that is all we know.
    flow.heading(`Partner ${node.label}: TIN ${batch.tin}`);
    flow.fields([['TIN', batch.tin], ['Identity', 'not among the related entities'], ...ids, ...state], layout);
  }

  flow.subheading('Data source runs');
  flow.table(
    [
      { header: 'Type', width: 1.3 },
      { header: 'Status', width: 1.2 },
      { header: 'Created at', width: 1.3 },
      { header: 'Succeeded at', width: 1.3 },
    ],
    batch.data_source_runs.map((run) => [run.type, run.status, formatTimestamp(run.created_at), formatTimestamp(run.succeeded_at)]),
    'No data source runs.',
  );
  flow.subheading('Raised alerts');
  flow.table(
    [
      { header: 'Alert', width: 3.8 },
      { header: 'Severity', width: 1.3 },
    ],
    batch.raised_alerts.map((alert) => [alert.name, alert.severity]),
    'No alerts raised.',
  );
}

function writeSummary(flow: TextFlow, nodes: ValidationTreeNode[]): void {
  const counts = new Map<string, number>();
  for (const { batch } of nodes) for (const alert of batch.raised_alerts) counts.set(alert.severity, (counts.get(alert.severity) ?? 0) + 1);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const failed = nodes.filter((node) => !node.batch.runs_succeeded);

  flow.heading('Summary');
  flow.subheading('Alerts in the tree by severity');
  flow.table(
    [
      { header: 'Severity', width: 3.8 },
      { header: 'Alerts', width: 1.3 },
    ],
    [...SEVERITIES_DESCENDING.map((severity) => [severity, String(counts.get(severity) ?? 0)]), ['total', String(total)]],
    '',
  );
  flow.space(6);
  flow.fields([
    ['Batches in the tree', String(nodes.length)],
    ['All runs succeeded', failed.length === 0 ? 'yes, in every batch' : `no, in ${failed.length} of ${nodes.length} batches`],
  ]);
  if (failed.length > 0) {
    flow.subheading('Batches whose runs did not all succeed');
    flow.paragraph(failed.map((node) => `${node.label === null ? 'Main entity' : `Partner ${node.label}`} (${node.batch.id})`).join(', '));
  }
}

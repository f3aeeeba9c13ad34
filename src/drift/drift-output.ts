import { junitXml, type Case } from '../contract';
import type { DriftReport, DriftReportDifference } from '../schemas';

/** The formats of `bvs-mock drift --report`. */
export type DriftOutputFormat = 'json' | 'markdown' | 'junit';

/** One difference in a sentence: what, where, what bvs-mock does, what the recording shows, and the row and reading. */
function describeDifference(difference: DriftReportDifference): string {
  const where = difference.path === null ? '' : ` at ${difference.path}`;
  const count = difference.count > 1 ? ` (${difference.count} times)` : '';
  const row =
    difference.row === null
      ? ''
      : difference.reading === null
        ? `; refutes docs/fidelity.md row ${difference.row}`
        : `; refutes docs/fidelity.md row ${difference.row}: the recording reads as ${difference.reading.name}=${difference.reading.value}`;
  return `${difference.check}: ${difference.subject}${where}: bvs-mock ${difference.bvs_mock}; recorded: ${difference.recording}${count}${row}`;
}

/** The report as text: JSON (the whole report), Markdown for a CI job's page, or JUnit XML (a suite per tree). */
export function renderDriftReport(report: DriftReport, format: DriftOutputFormat, at: Date): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return markdown(report, at);
  return junit(report, at);
}

/** What a terminal shows: one line per tree, per difference and per confirmation, then the sum. */
export function driftSummary(report: DriftReport): string {
  const lines = [
    `bvs-mock drift: ${report.recordings.join(', ')}: ${report.exchanges_checked} exchange(s) and ${report.deliveries_checked} delivery(ies) checked, ${report.trees.length} tree(s)`,
  ];
  for (const tree of report.trees)
    lines.push(
      tree.not_played === null
        ? `  tree ${tree.tree_id} (${tree.display_name ?? 'unnamed'}): ${tree.events_recorded} events recorded, ${tree.events_played} played by bvs-mock`
        : `  tree ${tree.tree_id} (${tree.display_name ?? 'unnamed'}): not played: ${tree.not_played}`,
    );
  for (const difference of report.differences) lines.push(`  ${difference.tree_id ?? 'no tree'}: ${describeDifference(difference)}`);
  for (const confirmation of report.confirmations)
    lines.push(`  ${confirmation.tree_id ?? 'no tree'}: confirms docs/fidelity.md row ${confirmation.row} (${confirmation.choice}): ${confirmation.evidence}`);
  const notPlayed = report.trees.filter((tree) => tree.not_played !== null).length;
  lines.push(
    `${report.differences.length} difference(s), ${report.confirmations.length} confirmation(s)${notPlayed === 0 ? '' : `, ${notPlayed} tree(s) not played (incomplete)`}`,
  );
  return `${lines.join('\n')}\n`;
}

function markdown(report: DriftReport, at: Date): string {
  const cell = (text: string | number | null) =>
    String(text ?? '')
      .replace(/\|/g, '\\|')
      .replace(/\n/g, ' ');
  const lines = [
    '# Drift of the recorded service from bvs-mock',
    '',
    `${at.toISOString()}: ${report.recordings.map((file) => `\`${file}\``).join(', ')}; ${report.exchanges_checked} exchange(s) and ${report.deliveries_checked} delivery(ies) checked; ${report.trees.length} tree(s) played with a tolerance of ${report.tolerance_ms} ms.`,
    '',
    '| Tree | Name | Events recorded | Events played by bvs-mock | Not played because |',
    '| --- | --- | --- | --- | --- |',
    ...report.trees.map(
      (tree) => `| ${tree.tree_id} | ${cell(tree.display_name)} | ${tree.events_recorded} | ${tree.events_played} | ${cell(tree.not_played)} |`,
    ),
    '',
  ];
  if (report.differences.length === 0) lines.push('No difference: the recordings read as the contract says and their trees play the same in bvs-mock.', '');
  else
    lines.push(
      '## Differences',
      '',
      '| Tree | Check | Subject | Path | bvs-mock | Recording | Row | Reading | Count |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...report.differences.map(
        (d) =>
          `| ${cell(d.tree_id)} | ${d.check} | ${cell(d.subject)} | ${d.path === null ? '' : `\`${cell(d.path)}\``} | ${cell(d.bvs_mock)} | ${cell(d.recording)} | ${cell(d.row)} | ${d.reading === null ? '' : `${d.reading.name}=${d.reading.value}`} | ${d.count} |`,
      ),
      '',
    );
  if (report.confirmations.length > 0)
    lines.push(
      '## Choices the recordings confirm',
      '',
      '| Tree | Row | Choice | Evidence |',
      '| --- | --- | --- | --- |',
      ...report.confirmations.map((c) => `| ${cell(c.tree_id)} | ${c.row} | ${c.choice} | ${cell(c.evidence)} |`),
      '',
    );
  return `${lines.join('\n')}`;
}

function junit(report: DriftReport, at: Date): string {
  const failure = (d: DriftReportDifference): Case => ({
    name: `${d.check}: ${d.subject}${d.path === null ? '' : ` ${d.path}`}`,
    failure: { message: describeDifference(d), type: d.check, details: describeDifference(d) },
  });
  const confirmed = (treeId: string | null): Case[] =>
    report.confirmations.filter((c) => c.tree_id === treeId).map((c) => ({ name: `confirms docs/fidelity.md row ${c.row} (${c.choice})` }));
  const contract = report.differences.filter((d) => d.tree_id === null);
  const suites: Array<{ suite: string; cases: Case[] }> = [
    {
      suite: 'recorded exchanges of no tree',
      cases: [...(contract.length === 0 ? [{ name: 'every exchange of no tree reads as the contract says' }] : contract.map(failure)), ...confirmed(null)],
    },
  ];
  for (const tree of report.trees) {
    const cases = report.differences.filter((d) => d.tree_id === tree.tree_id).map(failure);
    if (tree.not_played !== null) cases.push({ name: 'played in bvs-mock', skipped: tree.not_played });
    else if (cases.length === 0) cases.push({ name: 'plays the same in bvs-mock' });
    cases.push(...confirmed(tree.tree_id));
    suites.push({ suite: `tree ${tree.tree_id} (${tree.display_name ?? 'unnamed'})`, cases });
  }
  return junitXml(
    suites.map((suite) => ({ ...suite, classname: 'bvs-mock.drift' })),
    at,
    'bvs-mock drift',
  );
}

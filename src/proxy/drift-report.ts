import { formatOfFile, junitXml, type Case } from '../contract';
import type { DriftAnswer } from '../schemas';

/** The formats of `bvs-mock proxy --report`. */
export type DriftReportFormat = 'json' | 'markdown' | 'junit';

/** The format `--report-format` names, else the one the file's extension says (`.md`, `.xml`), else JSON. */
export function driftFormatOf(file: string, given?: string): DriftReportFormat {
  return given === undefined ? formatOfFile(file) : (given as DriftReportFormat);
}

/** The drift as text: JSON (`GET /_mock/drift`'s answer), Markdown for a CI job page, or JUnit XML with one failing case per difference. */
export function renderDrift(drift: DriftAnswer, format: DriftReportFormat, upstream: string, at: Date): string {
  if (format === 'json') return `${JSON.stringify(drift, null, 2)}\n`;
  if (format === 'markdown') return markdown(drift, upstream, at);
  return junit(drift, upstream, at);
}

function markdown(drift: DriftAnswer, upstream: string, at: Date): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    `# Drift of ${upstream} from the contract`,
    '',
    `${at.toISOString()}: ${drift.exchanges} exchange(s) checked, ${drift.differences.length} difference(s)${drift.differences_omitted > 0 ? ` (and ${drift.differences_omitted} more not listed)` : ''}.`,
    '',
  ];
  if (drift.differences.length === 0) return `${lines.join('\n')}No difference: every answer read as the contract says.\n`;
  lines.push(
    '| Operation | Side | Kind | Path | Contract | Upstream | Row | Count | First request |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const d of drift.differences)
    lines.push(
      `| ${d.operation} | ${d.side} | ${d.kind} | \`${cell(d.path)}\` | ${cell(d.expected)} | ${cell(d.actual)} | ${d.row ?? ''} | ${d.count} | ${d.first_request_id} |`,
    );
  return `${lines.join('\n')}\n`;
}

function junit(drift: DriftAnswer, upstream: string, at: Date): string {
  const cases: Case[] = drift.differences.map((d) => {
    const message = `${d.path}: the contract says ${d.expected}; the upstream sent ${d.actual}`;
    return {
      name: `${d.operation}: ${d.side} ${d.kind} ${d.path}`,
      failure: {
        message,
        type: d.kind,
        details: `${message} (${d.count} time(s), first in ${d.first_request_id}${d.row === null ? '' : `; docs/fidelity.md row ${d.row}`})`,
      },
    };
  });
  if (cases.length === 0) cases.push({ name: 'every exchange reads as the contract says' });
  const omitted = drift.differences_omitted > 0 ? `; ${drift.differences_omitted} more difference(s) not listed` : '';
  return junitXml(
    [{ suite: upstream, cases, classname: 'bvs-mock.drift', systemOut: `${drift.exchanges} exchange(s) checked${omitted}` }],
    at,
    'bvs-mock proxy drift',
  );
}

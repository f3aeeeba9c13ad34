import { junitXml, type Case } from '../contract/report-formats';
import type { ProbeExchange, ReceiverCheckReport, ReceiverCheckResult } from './receiver-check';

type ProbeAnswer = ProbeExchange['answer'];

/** The forms a receiver check is written in: text for a terminal, JSON, JUnit XML for CI. */
export const RECEIVER_CHECK_FORMATS = ['text', 'json', 'junit'] as const;
export type ReceiverCheckFormat = (typeof RECEIVER_CHECK_FORMATS)[number];

/** A receiver check in one of its forms. */
export function renderReceiverCheck(report: ReceiverCheckReport, format: ReceiverCheckFormat, at: Date): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'junit') return junitXml([{ suite: `receiver check of ${report.url}`, cases: receiverCheckCases(report) }], at, 'bvs-mock');
  return renderText(report);
}

/** Each check as a JUnit case: a failure carries the rule, the reason and the requests with their answers. */
function receiverCheckCases(report: ReceiverCheckReport): Case[] {
  return report.results.map((result) => {
    const name = `${result.check}: ${result.expectation}`;
    if (result.outcome === 'skipped') return { name, skipped: result.reason! };
    if (result.outcome !== 'fail') return { name };
    return { name, failure: { message: `${result.reason} (${result.rule})`, type: result.check, details: evidence(result) } };
  });
}

function evidence(result: ReceiverCheckResult): string {
  return [
    `Rule: ${result.rule}`,
    `Why: ${result.reason}`,
    ...(result.processed === null ? [] : [`Processed, by the side-effect probe: ${processedLine(result)}`]),
    ...result.exchanges.map(({ request, answer }, index) => {
      const headers = Object.entries(request.headers)
        .map(([name, value]) => `  ${name}: ${value}`)
        .join('\n');
      return `Request ${index + 1}: POST ${request.url} (${request.type}, ${request.bytes} bytes)\n${headers}\nAnswer: ${answered(answer)}${answer.body_excerpt === '' ? '' : `: ${answer.body_excerpt}`}`;
    }),
  ].join('\n');
}

/** An answer in a line: no HTTP answer says only `unreachable`, with no time (docs/fidelity.md row 106). */
function answered(answer: ProbeAnswer): string {
  if (answer.status === null) return `no HTTP answer (${answer.error})`;
  return `${answer.status}${answer.error === null ? '' : ` cut short (${answer.error})`} in ${answer.duration_ms} ms`;
}

/** Each event a behaviour check sent, with how many times the receiver processed it. */
function processedLine(result: ReceiverCheckResult): string {
  return (result.processed ?? []).map((event) => `${event.type} ${event.id}: ${event.times}×`).join(', ');
}

function renderText(report: ReceiverCheckReport): string {
  const observed = report.observe === null ? 'no side-effect probe' : `side effects by ${report.observe}`;
  const lines = [`bvs-mock check-receiver ${report.url} (auth ${report.auth}; ${observed}; quickly: within ${report.quick_answer_ms} ms)`, ''];
  for (const result of report.results) {
    const answers = result.exchanges
      .map(({ answer }) => (answer.status === null ? 'unreachable' : `${answer.status}${answer.error === null ? '' : ' cut short'} ${answer.duration_ms} ms`))
      .join(', ');
    lines.push(`  ${result.outcome.toUpperCase().padEnd(7)} ${result.check.padEnd(58)} ${answers}`);
    if (result.outcome === 'fail') {
      lines.push(`          ${result.reason}`, `          rule: ${result.rule}`);
      const forged = result.exchanges[0]?.request.headers.authorization;
      if (result.check.startsWith('refuse:')) lines.push(`          sent: Authorization: ${forged ?? '(none)'}`);
      if (result.processed !== null) lines.push(`          processed: ${processedLine(result)}`);
    }
    if (result.outcome === 'skipped') lines.push(`          ${result.reason}`);
  }
  lines.push('', report.summary, '');
  return lines.join('\n');
}

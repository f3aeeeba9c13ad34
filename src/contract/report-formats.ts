import type { ContractReport } from './contract-report';
import type { ReliedOnChoice } from '../schemas';

/** The forms the contract report is served and written in (`GET /_mock/report?format=`, `serve --report`). */
export const REPORT_FORMATS = ['json', 'markdown', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Each format's media type. */
export const REPORT_MEDIA_TYPES: Readonly<Record<ReportFormat, string>> = {
  json: 'application/json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  junit: 'application/xml; charset=utf-8',
};

/** The format a report file's name asks for: `.xml` JUnit, `.md` Markdown, anything else JSON. */
export function formatOfFile(file: string): ReportFormat {
  if (/\.xml$/i.test(file)) return 'junit';
  if (/\.(md|markdown)$/i.test(file)) return 'markdown';
  return 'json';
}

/**
 * The report as text in `format`. `at` is when it was made (the simulated clock, which starts at the
 * wall-clock time unless told otherwise), for the JUnit timestamp and the Markdown heading.
 *
 * @example
 * renderReport(buildContractReport(services), 'junit', new Date());
 */
export function renderReport(report: ContractReport, format: ReportFormat, at: Date): string {
  if (format === 'markdown') return renderMarkdown(report, at);
  if (format === 'junit') return renderJunit(report, at);
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** One JUnit test case: passed, or failed with a message and the details. */
/** One JUnit test case: its name, and its failure when it failed. */
export interface Case {
  name: string;
  failure?: { message: string; type: string; details: string };
  /** Why the case did not run: written `<skipped message="..."/>`, which CI systems show as skipped, never as passed. */
  skipped?: string;
}

/** The report as JUnit cases, by suite: what a CI system shows as tests (docs/fidelity.md row 83). */
function reportCases(report: ContractReport): Array<{ suite: string; cases: Case[] }> {
  const deliveryCounts = (type: string) =>
    Object.entries(report.events.deliveries[type] ?? {})
      .filter(([, count]) => count > 0)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ');
  return [
    {
      suite: 'operations',
      cases: [
        ...Object.entries(report.operations.exercised).map(([operation, calls]) => ({ name: `${operation}: called ${calls} time${calls === 1 ? '' : 's'}` })),
        ...report.operations.not_exercised.map((operation) => ({ name: `${operation}: not called` })),
      ],
    },
    {
      // bvs-mock's own paths: a call is worth knowing (the real service may not have them), a path not called is no gap.
      suite: 'extension operations',
      cases: Object.entries(report.operations.extensions.exercised).map(([operation, calls]) => ({
        name: `${operation}: called ${calls} time${calls === 1 ? '' : 's'} (a path of bvs-mock's choosing, x-bvs-mock-extension: the real service may not have it)`,
      })),
    },
    {
      suite: 'events',
      cases: [
        ...Object.entries(report.events.emitted).map(([type, count]) => {
          const deliveries = deliveryCounts(type);
          return { name: `${type}: emitted ${count} time${count === 1 ? '' : 's'}${deliveries === '' ? '' : `; deliveries ${deliveries}`}` };
        }),
        ...report.events.not_emitted.map((type) => ({ name: `${type}: not emitted` })),
      ],
    },
    {
      suite: 'violations',
      cases: report.violations.requests.flatMap((request) => [
        ...request.violations.map((issue) => ({
          name: `${request.label === undefined ? '' : `${request.label}: `}${request.method} ${request.path} (${request.id}): ${issue.path} ${issue.code}`,
          failure: {
            message: `${issue.path}: ${issue.message}`,
            type: issue.code,
            details: `${request.method} ${request.path} answered ${request.status} (request ${request.id}; GET /_mock/requests shows it)\n${issue.path}: ${issue.message}`,
          },
        })),
        // The violations the journal only counted (docs/fidelity.md row 96): one case says how many.
        ...(request.violations_omitted === undefined
          ? []
          : [
              {
                name: `${request.label === undefined ? '' : `${request.label}: `}${request.method} ${request.path} (${request.id}): ${request.violations_omitted} more violations`,
                failure: {
                  message: `${request.violations_omitted} more violations than the ${request.violations.length} listed`,
                  type: 'violations_omitted',
                  details: `${request.method} ${request.path} answered ${request.status} (request ${request.id}); bvs-mock keeps the first ${request.violations.length} violations of a request and counts the others`,
                },
              },
            ]),
      ]),
    },
    {
      suite: 'receivers',
      cases: report.receivers.findings.map((receiver) => {
        const problems = [
          receiver.not_2xx > 0 ? `${receiver.not_2xx} answer${receiver.not_2xx === 1 ? '' : 's'} outside 2xx` : '',
          receiver.no_answer > 0 ? `${receiver.no_answer} attempt${receiver.no_answer === 1 ? '' : 's'} without an answer` : '',
          receiver.slow_answers > 0
            ? `${receiver.slow_answers} answer${receiver.slow_answers === 1 ? '' : 's'} slower than ${report.receivers.quick_answer_ms} ms (slowest ${receiver.slowest_ms} ms; spec §6: answer HTTP 200 quickly)`
            : '',
        ].filter(Boolean);
        const name = `${receiver.url}${receiver.endpoint_id === null ? ' (legacy webhook_url)' : ` (${receiver.endpoint_id})`}: ${receiver.deliveries} deliver${receiver.deliveries === 1 ? 'y' : 'ies'}, ${receiver.attempts} attempt${receiver.attempts === 1 ? '' : 's'}`;
        if (problems.length === 0) return { name };
        return {
          name,
          failure: {
            message: problems.join('; '),
            type: receiver.slow_answers > 0 && receiver.not_2xx + receiver.no_answer === 0 ? 'slow_receiver' : 'receiver_not_2xx',
            details: `${problems.join('\n')}\n${receiver.retried_deliveries} deliver${receiver.retried_deliveries === 1 ? 'y' : 'ies'} needed retries (GET /_mock/events shows every attempt)`,
          },
        };
      }),
    },
    {
      suite: 'receiver checks',
      cases: report.receiver_checks.flatMap((run) => {
        const title = `${run.url} (${run.endpoint_id}, ${run.id})`;
        if (run.failures.length === 0 && run.skipped > 0)
          return [{ name: `${title}: ${run.passed} checks passed, ${run.skipped} skipped`, skipped: run.summary }];
        if (run.failures.length === 0) return [{ name: `${title}: ${run.passed} checks passed` }];
        return run.failures.map((failure) => ({
          name: `${title}: ${failure.check}`,
          failure: {
            message: `${failure.reason} (${failure.rule})`,
            type: failure.check,
            details: `${failure.reason}\nRule: ${failure.rule}\nGET /_mock/receiver-checks shows the requests sent and the answers.`,
          },
        }));
      }),
    },
    {
      suite: 'client behaviour',
      cases: report.client_behaviour.findings.map((finding) => {
        const name = `${finding.check}: ${finding.message}`;
        if (finding.outcome === 'pass') return { name };
        const evidence = finding.evidence.map(
          (item) =>
            `${item.request_id} at ${item.at}: ${item.method} ${item.path} answered ${item.status}${item.fault === null ? '' : ` (fault ${item.fault})`}`,
        );
        return {
          name,
          failure: {
            message: `${finding.message} (${finding.rule})`,
            type: finding.check,
            details: [`Rule: ${finding.rule}`, ...evidence, report.client_behaviour.note].join('\n'),
          },
        };
      }),
    },
    reliedOnSuite(report.relied_on ?? []),
  ];
}

/** The suite of the choices relied on: passing cases, information for the reader, never a failure. */
const RELIED_ON_SUITE = "relied on bvs-mock's choices";

const RELIED_ON_NOTE =
  'Choices of bvs-mock where the spec is silent or unsure (docs/fidelity.md, by row) that this run exercised. The real service may choose otherwise: each case is information, never a failure.';

function reliedOnSuite(reliedOn: readonly ReliedOnChoice[]): { suite: string; cases: Case[]; systemOut: string } {
  return {
    suite: RELIED_ON_SUITE,
    cases: reliedOn.map((item) => ({ name: `row ${item.row}: ${item.choice} (${seenText(item.seen)})` })),
    systemOut: RELIED_ON_NOTE,
  };
}

/** Where and how often a choice was seen, in words: `3 times, first req_000004 GET /api/v2/…`. */
function seenText(seen: ReliedOnChoice['seen']): string {
  const { first } = seen;
  const where = [
    first.report === undefined ? '' : `in ${first.report}:`,
    first.request_id === undefined ? '' : `${first.request_id} ${first.request ?? ''}`.trim(),
    first.event === undefined ? '' : `${first.event}${first.resource_id === undefined ? '' : ` of ${first.resource_id}`}`,
    first.delivery_id === undefined ? '' : `(delivery ${first.delivery_id})`,
  ].filter(Boolean);
  return `${seen.count} time${seen.count === 1 ? '' : 's'}, first ${where.join(' ')} at ${first.at}`;
}

/**
 * The `relied_on` of several reports as one (the suite reporters): one entry per row and choice, counts summed,
 * the first occurrence of the first report that has it, named by that report; in row order.
 */
function mergeReliedOn(reports: readonly NamedReport[]): ReliedOnChoice[] {
  const merged = new Map<string, ReliedOnChoice>();
  for (const { name, report } of reports) {
    // A report saved by an older bvs-mock has no relied_on.
    for (const item of report.relied_on ?? []) {
      const key = `${item.row}\u0000${item.choice}`;
      const known = merged.get(key);
      if (known !== undefined) known.seen.count += item.seen.count;
      else merged.set(key, { row: item.row, choice: item.choice, seen: { count: item.seen.count, first: { ...item.seen.first, report: name } } });
    }
  }
  return [...merged.values()]
    .map((item, order) => ({ item, order }))
    .sort((a, b) => a.item.row - b.item.row || a.order - b.order)
    .map(({ item }) => item);
}

/** The receiver checks skipped, in the Markdown summary: a skipped check is not a pass. */
function skippedChecks(report: ContractReport): string {
  const skipped = report.receiver_checks.reduce((sum, run) => sum + run.skipped, 0);
  return skipped === 0 ? '' : ` (${skipped} skipped: not passed)`;
}

/** JUnit XML following the Ant JUnit schema, which GitHub, GitLab, Jenkins and Azure DevOps read. */
function renderJunit(report: ContractReport, at: Date): string {
  return junitXml(reportCases(report), at, 'bvs-mock contract');
}

/**
 * Suites of cases as JUnit XML (the Ant JUnit schema): one `<testsuite>` per suite, named `<title>: <suite>`,
 * a `<failure>` in each failed case. The contract report and the receiver check write their XML with it.
 */
export function junitXml(suites: Array<{ suite: string; cases: Case[]; classname?: string; systemOut?: string }>, at: Date, title: string): string {
  const timestamp = at.toISOString().slice(0, 19);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  suites.forEach(({ suite, cases, classname = `bvs-mock.${suite.replace(/\s+/g, '-')}`, systemOut }, id) => {
    const failures = cases.filter((item) => item.failure !== undefined).length;
    const skipped = cases.filter((item) => item.failure === undefined && item.skipped !== undefined).length;
    lines.push(
      `  <testsuite package="bvs-mock" id="${id}" name="${xml(`${title}: ${suite}`)}" timestamp="${timestamp}" hostname="localhost" tests="${cases.length}" failures="${failures}" errors="0"${skipped === 0 ? '' : ` skipped="${skipped}"`} time="0">`,
      '    <properties/>',
    );
    for (const item of cases) {
      const open = `    <testcase name="${xml(item.name)}" classname="${xml(classname)}" time="0"`;
      if (item.failure === undefined && item.skipped !== undefined)
        lines.push(`${open}>`, `      <skipped message="${xml(item.skipped)}"/>`, '    </testcase>');
      else if (item.failure === undefined) lines.push(`${open}/>`);
      else {
        lines.push(
          `${open}>`,
          `      <failure message="${xml(item.failure.message)}" type="${xml(item.failure.type)}">${xml(item.failure.details)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push(systemOut === undefined ? '    <system-out/>' : `    <system-out>${xml(systemOut)}</system-out>`, '    <system-err/>', '  </testsuite>');
  });
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** One contract report among several: a test file's session, named by the file, and the tests the runner ran in it. */
export interface NamedReport {
  /** The test file, relative to the project (or what else names where the report came from). */
  name: string;
  report: ContractReport;
  /** The tests of the file as the runner named them (the labels their requests carried); none when unknown. */
  tests?: readonly string[];
}

/**
 * Several contract reports as one text in `format` (the suite reporters of bvs-mock/testing): JUnit with each
 * report's suites named `<name>: <suite>` and, when its tests are known, a suite `<name>: tests` with one case per
 * test, failed when requests carrying its label broke the contract; Markdown with one section per report; JSON
 * `{ reports: [{ name, tests, report }] }`.
 */
export function renderMergedReport(reports: readonly NamedReport[], format: ReportFormat, at: Date): string {
  const reliedOn = mergeReliedOn(reports);
  if (format === 'json')
    return `${JSON.stringify({ reports: reports.map(({ name, tests, report }) => ({ name, tests: tests ?? [], report })), relied_on: reliedOn }, null, 2)}\n`;
  if (format === 'junit')
    return junitXml(
      [
        ...reports.flatMap(({ name, report, tests }) => [
          ...(tests === undefined ? [] : [{ suite: `${name}: tests`, cases: testCases(report, tests), classname: name }]),
          // The choices relied on are one suite for the whole run, below.
          ...reportCases(report)
            .filter(({ suite }) => suite !== RELIED_ON_SUITE)
            .map(({ suite, cases }) => ({ suite: `${name}: ${suite}`, cases, classname: `bvs-mock.${suite.replace(/\s+/g, '-')}` })),
        ]),
        reliedOnSuite(reliedOn),
      ],
      at,
      'bvs-mock contract',
    );
  const sections = reports.map(({ name, report }) =>
    renderMarkdown(report, at, { reliedOnTable: false })
      .replace(/^# bvs-mock contract report$/m, `# ${md(name)}`)
      .replace(/^(#+) /gm, '#$1 '),
  );
  const total = reports.length;
  return [
    `# bvs-mock contract report`,
    '',
    `${total} report${total === 1 ? '' : 's'}, made ${at.toISOString()}.`,
    '',
    ...sections,
    ...reliedOnMarkdown(reliedOn),
  ].join('\n');
}

/** The Markdown section of the choices relied on: a table by row; nothing when there is none. */
function reliedOnMarkdown(reliedOn: readonly ReliedOnChoice[]): string[] {
  if (reliedOn.length === 0) return [];
  return [
    "## Relied on bvs-mock's choices",
    '',
    RELIED_ON_NOTE,
    '',
    '| Row | Choice | Seen |',
    '| --- | --- | --- |',
    ...reliedOn.map((item) => `| ${item.row} | ${md(item.choice)} | ${md(seenText(item.seen))} |`),
    '',
  ];
}

/** One case per test: failed when requests that carried its name as their label broke the contract. */
function testCases(report: ContractReport, tests: readonly string[]): Case[] {
  return tests.map((test) => {
    const requests = report.violations.requests.filter((request) => request.label === test);
    if (requests.length === 0) return { name: `${test}: no contract violation` };
    const lines = requests.flatMap((request) =>
      request.violations.map((issue) => `${request.method} ${request.path} (${request.id}) answered ${request.status}: ${issue.path}: ${issue.message}`),
    );
    return {
      name: `${test}: ${requests.length} request${requests.length === 1 ? '' : 's'} with contract violations`,
      failure: { message: lines[0] ?? `${requests.length} requests with violations`, type: 'contract_violation', details: lines.join('\n') },
    };
  });
}

/** The report as Markdown; `reliedOnTable: false` leaves out the table of choices relied on (a merged report has one for all). */
function renderMarkdown(report: ContractReport, at: Date, { reliedOnTable = true } = {}): string {
  const suites = reportCases(report);
  const failing = suites.flatMap(({ suite, cases }) => cases.filter((item) => item.failure !== undefined).map((item) => ({ suite, ...item })));
  const lines = [
    `# bvs-mock contract report`,
    '',
    `Made ${at.toISOString()}. ${failing.length === 0 ? 'No finding.' : `**${failing.length} finding${failing.length === 1 ? '' : 's'}.**`}`,
    '',
    '| | |',
    '| --- | --- |',
    `| Operations called | ${Object.keys(report.operations.exercised).length} of ${Object.keys(report.operations.exercised).length + report.operations.not_exercised.length} |`,
    `| Extension operations called (bvs-mock's own paths, x-bvs-mock-extension) | ${Object.keys(report.operations.extensions.exercised).length} of ${Object.keys(report.operations.extensions.exercised).length + report.operations.extensions.not_exercised.length} |`,
    `| Event types emitted | ${Object.keys(report.events.emitted).length} of ${Object.keys(report.events.emitted).length + report.events.not_emitted.length} |`,
    `| Requests with violations | ${report.violations.violating_requests} (${report.violations.issues} violation${report.violations.issues === 1 ? '' : 's'} in all) |`,
    `| Receivers with findings | ${suites.find(({ suite }) => suite === 'receivers')!.cases.filter((item) => item.failure !== undefined).length} of ${report.receivers.findings.length} |`,
    `| Receiver checks failed | ${report.receiver_checks.reduce((sum, run) => sum + run.failed, 0)} of ${report.receiver_checks.reduce((sum, run) => sum + run.passed + run.failed + run.skipped, 0)}${skippedChecks(report)} |`,
    `| Choices of bvs-mock relied on (docs/fidelity.md rows) | ${(report.relied_on ?? []).length} |`,
    '',
  ];
  if (failing.length > 0) {
    lines.push('## Findings', '');
    for (const item of failing) lines.push(`- **${md(item.suite)}**: ${md(item.name)}: ${md(item.failure!.message)}`);
    lines.push('');
  }
  if (report.operations.not_exercised.length > 0)
    lines.push('## Operations not called', '', ...report.operations.not_exercised.map((operation) => `- ${operation}`), '');
  const extensions = Object.keys(report.operations.extensions.exercised);
  if (extensions.length > 0)
    lines.push(
      "## Extension operations called (paths of bvs-mock's choosing: the real service may not have them)",
      '',
      ...extensions.map((operation) => `- ${operation}`),
      '',
    );
  if (report.events.not_emitted.length > 0) lines.push('## Event types not emitted', '', ...report.events.not_emitted.map((type) => `- ${type}`), '');
  if (reliedOnTable) lines.push(...reliedOnMarkdown(report.relied_on ?? []));
  return lines.join('\n');
}

function xml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot hold at all become U+FFFD.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function md(text: string): string {
  return text.replace(/([\\`*_[\]|<>])/g, '\\$1').replace(/\s+/g, ' ');
}

/**
 * `bvs-mock/testing/vitest-reporter`: one contract report for a whole vitest run, merged from every session's (each
 * `startBvsMock` started in a test file, on a shared instance or its own), written as JUnit XML, Markdown and JSON,
 * each case named by test file and test.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({
 *   test: { reporters: ['default', ['bvs-mock/testing/vitest-reporter', { junit: 'reports/bvs-mock.xml' }]] },
 * });
 */
import { SuiteReport, type SuiteReportOptions } from './suite-report';

export type { SuiteReportOptions };

/** What this reporter reads of vitest's tasks: a file, its suites and tests. */
export interface VitestTask {
  type: string;
  name: string;
  filepath?: string;
  tasks?: readonly VitestTask[];
}

/** The vitest reporter: vitest makes it with the options of its entry in `reporters`. */
export default class BvsMockVitestReporter {
  private report: SuiteReport | undefined;

  constructor(private readonly options: SuiteReportOptions = {}) {}

  /** Before the workers start: the folder the sessions' reports go to, in the environment. */
  onInit(vitest: { config: { root: string } }): void {
    this.report = new SuiteReport(this.options, vitest.config.root);
  }

  /** Once every file has run: the merged report, written. */
  onFinished(files: readonly VitestTask[] = []): void {
    if (this.report === undefined) return;
    for (const file of files) if (file.filepath !== undefined) this.report.addTests(file.filepath, testNames(file.tasks ?? [], []));
    const written = this.report.write();
    process.stderr.write(`bvs-mock: contract report written to ${written.join(', ')}\n`);
  }
}

/** The tests under `tasks`, named as vitest names the current test: suites and test joined by ` > `. */
function testNames(tasks: readonly VitestTask[], path: readonly string[]): string[] {
  return tasks.flatMap((task) => (task.type === 'test' ? [[...path, task.name].join(' > ')] : testNames(task.tasks ?? [], [...path, task.name])));
}

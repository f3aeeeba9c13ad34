/**
 * `bvs-mock/testing/jest-reporter`: one contract report for a whole jest run, merged from every session's (each
 * `startBvsMock` started in a test file, on a shared instance or its own), written as JUnit XML, Markdown and JSON,
 * each case named by test file and test.
 *
 * @example
 * // jest.config.js
 * module.exports = {
 *   reporters: ['default', ['bvs-mock/testing/jest-reporter', { junit: 'reports/bvs-mock.xml' }]],
 * };
 */
import { SuiteReport, type SuiteReportOptions } from './suite-report';

export type { SuiteReportOptions };

/** What this reporter reads of a test file's result (jest's `TestResult`). */
export interface JestFileResult {
  testFilePath: string;
  testResults: ReadonlyArray<{ fullName: string }>;
}

/** The jest reporter: jest makes it with its global config and the options of its entry in `reporters`. */
export default class BvsMockJestReporter {
  private readonly report: SuiteReport;

  constructor(globalConfig: { rootDir: string }, options: SuiteReportOptions = {}) {
    this.report = new SuiteReport(options, globalConfig.rootDir);
  }

  /** After each test file: its tests, the cases of its part of the report. */
  onTestResult(_test: unknown, result: JestFileResult): void {
    this.report.addTests(
      result.testFilePath,
      result.testResults.map((test) => test.fullName),
    );
  }

  /** Once every file has run: the merged report, written. */
  onRunComplete(): void {
    const written = this.report.write();
    process.stderr.write(`bvs-mock: contract report written to ${written.join(', ')}\n`);
  }
}

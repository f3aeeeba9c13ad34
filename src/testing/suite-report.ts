import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { renderMergedReport, type NamedReport, type ReportFormat } from '../contract';
import { readSessionReports, REPORT_DIR_ENV, type SavedSessionReport } from './session-report';

/**
 * Options of the suite reporters (`bvs-mock/testing/jest-reporter`, `bvs-mock/testing/vitest-reporter`): where the
 * merged contract report goes. Each path is relative to the project's root (jest's `rootDir`, vitest's `root`);
 * `false` writes no file of that format.
 *
 * @example
 * // jest.config.js
 * reporters: ['default', ['bvs-mock/testing/jest-reporter', { junit: 'reports/bvs-mock.xml', markdown: false }]],
 */
export interface SuiteReportOptions {
  /** The JUnit XML; default `bvs-mock-report/junit.xml`. */
  junit?: string | false;
  /** The Markdown; default `bvs-mock-report/report.md`. */
  markdown?: string | false;
  /** The JSON; default `bvs-mock-report/report.json`. */
  json?: string | false;
}

const DEFAULT_PATHS: Readonly<Record<ReportFormat, string>> = {
  junit: 'bvs-mock-report/junit.xml',
  markdown: 'bvs-mock-report/report.md',
  json: 'bvs-mock-report/report.json',
};

/**
 * One run's merged contract report, for a reporter: it puts a folder in the environment ({@link REPORT_DIR_ENV})
 * before the workers start, where each `stop()` of `startBvsMock` leaves its session's report; at the end it merges
 * them, each named by its test file, with the tests the runner ran in that file.
 */
export class SuiteReport {
  private readonly dir: string;
  private readonly tests = new Map<string, string[]>();

  constructor(
    private readonly options: SuiteReportOptions,
    private readonly root: string,
  ) {
    for (const format of ['junit', 'markdown', 'json'] as const) {
      const value = options[format];
      if (value !== undefined && value !== false && (typeof value !== 'string' || value.trim() === ''))
        throw new Error(`bvs-mock: the reporter's option ${format} is ${JSON.stringify(value)}; give a file path or false`);
    }
    this.dir = mkdtempSync(join(tmpdir(), 'bvs-mock-reports-'));
    // Workers start after the reporters and inherit the environment; the main process's own starts read it too.
    process.env[REPORT_DIR_ENV] = this.dir;
  }

  /** The tests the runner ran in `file` (absolute), named as the runner names the current test. */
  addTests(file: string, names: readonly string[]): void {
    this.tests.set(resolve(file), [...(this.tests.get(resolve(file)) ?? []), ...names]);
  }

  /** Merges the reports left so far, writes the files and ends: later `stop()`s (a global teardown) write nothing. Answers the files written. */
  write(at = new Date()): string[] {
    if (process.env[REPORT_DIR_ENV] === this.dir) delete process.env[REPORT_DIR_ENV];
    let saved: SavedSessionReport[];
    try {
      saved = readSessionReports(this.dir);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
    const reports = this.named(saved);
    const written: string[] = [];
    for (const format of ['junit', 'markdown', 'json'] as const) {
      const path = this.options[format] ?? DEFAULT_PATHS[format];
      if (path === false) continue;
      const file = isAbsolute(path) ? path : join(this.root, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, renderMergedReport(reports, format, at));
      written.push(file);
    }
    return written;
  }

  /** Each report named by its test file (relative to the root), with its label when the file made several; by file, then as made. */
  private named(saved: SavedSessionReport[]): NamedReport[] {
    const byFile = new Map<string, SavedSessionReport[]>();
    for (const item of saved) {
      const key = item.test_file === null ? '' : resolve(item.test_file);
      byFile.set(key, [...(byFile.get(key) ?? []), item]);
    }
    return [...byFile.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([file, items]) =>
        items.map((item, index) => {
          const fileName = file === '' ? (item.label ?? 'bvs-mock') : relative(this.root, file).split('\\').join('/');
          const name = items.length > 1 && file !== '' ? `${fileName} (${item.label ?? `session ${index + 1}`})` : fileName;
          const tests = this.tests.get(file);
          return { name, report: item.report, ...(tests === undefined ? {} : { tests }) };
        }),
      );
  }
}

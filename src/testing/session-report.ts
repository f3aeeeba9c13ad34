import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractReport } from '../schemas';

/**
 * Where a session's contract report goes when it stops (the suite reporters, `bvs-mock/testing/jest-reporter` and
 * `…/vitest-reporter`, set it for the run's workers): a folder; each `stop()` of `startBvsMock` writes one file.
 */
export const REPORT_DIR_ENV = 'BVS_MOCK_REPORT_DIR';

/** What `stop()` writes: the report of one bvs-mock or session, and the test file that started it. */
export interface SavedSessionReport {
  version: 1;
  /** The test file that started it (absolute), or null outside a test runner. */
  test_file: string | null;
  /** The session's label. */
  label: string | null;
  report: ContractReport;
}

/** Writes `saved` into the folder {@link REPORT_DIR_ENV} names, under a name of its own (workers write at once). */
export function writeSessionReport(dir: string, saved: Omit<SavedSessionReport, 'version'>): void {
  mkdirSync(dir, { recursive: true });
  const name = `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}.json`;
  writeFileSync(join(dir, name), JSON.stringify({ version: 1, ...saved }));
}

/** Every report in `dir`, oldest first; a file that is not one is named in the error. */
export function readSessionReports(dir: string): SavedSessionReport[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const saved = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Partial<SavedSessionReport>;
    if (saved.version !== 1 || typeof saved.report !== 'object' || saved.report === null)
      throw new Error(`bvs-mock: ${join(dir, name)} is not a session report of this version (version ${String(saved.version)})`);
    return saved as SavedSessionReport;
  });
}

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Ant JUnit XML schema, a file of this repository; its header names its source and license. */
const SCHEMA = join(__dirname, 'junit.xsd');

/** Whether xmllint (Debian: libxml2-utils, which .ci/run installs) is on this machine. */
export const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

/**
 * Validates `xml` against the Ant JUnit schema with xmllint; throws with xmllint's words when it is not
 * valid.
 */
export function expectValidJunit(xml: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-junit-'));
  try {
    writeFileSync(join(dir, 'report.xml'), xml);
    try {
      execFileSync('xmllint', ['--noout', '--schema', SCHEMA, join(dir, 'report.xml')], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`the JUnit report does not follow the Ant JUnit schema:\n${String((error as { stderr?: Buffer }).stderr ?? error)}`, { cause: error });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './built-cli';

/**
 * The Ant JUnit XML schema (windyroad/JUnit-Schema, Apache License 2.0), as the junit-xml package
 * (a devDependency) ships it in its own test: read from there at test time, never copied into this
 * repository.
 */
function antJunitSchema(): string {
  const source = readFileSync(join(ROOT, 'node_modules', 'junit-xml', 'src', 'index.test.ts'), 'utf8');
  const match = /const antJunitSchema = '((?:[^'\\]|\\.)*)'/.exec(source);
  if (!match) throw new Error('junit-schema: the Ant JUnit schema was not found in node_modules/junit-xml/src/index.test.ts');
  return match[1]!.replace(/\\'/g, "'");
}

/** Whether xmllint (Debian: libxml2-utils, which .ci/run installs) is on this machine. */
export const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

/**
 * Validates `xml` against the Ant JUnit schema with xmllint; throws with xmllint's words when it is not
 * valid.
 */
export function expectValidJunit(xml: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-mock-junit-'));
  try {
    writeFileSync(join(dir, 'JUnit.xsd'), antJunitSchema());
    writeFileSync(join(dir, 'report.xml'), xml);
    try {
      execFileSync('xmllint', ['--noout', '--schema', join(dir, 'JUnit.xsd'), join(dir, 'report.xml')], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`the JUnit report does not follow the Ant JUnit schema:\n${String((error as { stderr?: Buffer }).stderr ?? error)}`, { cause: error });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

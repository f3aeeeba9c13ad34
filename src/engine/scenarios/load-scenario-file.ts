import { LineCounter, parseDocument } from 'yaml';
import { describeBytes, readRegularFile } from '../../files/read-regular-file';
import { PARSE_OPTIONS, Scenario, toIssues } from '../../schemas';
import { scenarioFromGeneratedSource } from './generate-shaped-scenario';
import { jsonPathLocator } from './locate-json-path';
import type { ScenarioFileIssue } from './scenario-file-issue';
import { yamlDocumentIssues } from './yaml-document-issues';

/**
 * Largest scenario, in bytes (256 KiB), whether read from a file or posted to `POST /_mock/scenarios`.
 * Parsing a scenario holds bvs-mock's one event loop, during which it answers no one, and YAML parses
 * at about a megabyte a second (denser forms slower: 1 MiB of `[1,1,...]` took 1.8 s), so 256 KiB
 * keeps the worst file to a few hundred milliseconds. The largest built-in scenario (large-tree.yaml,
 * a holding with 50 partners) is 18 KB: 256 KiB leaves room for trees of about 700 partners. A file
 * is checked by its size before it is read, a posted body before it is parsed (413), and the
 * request body limit (1 MiB, row 26) stays above it (docs/fidelity.md row 97).
 */
export const MAX_SCENARIO_FILE_BYTES = 256 * 1024;

/** What to do with a scenario over {@link MAX_SCENARIO_FILE_BYTES}, the end of the message. */
export const WHEN_SCENARIO_TOO_LARGE = 'split it into several scenario files, one per tree (docs/scenarios.md)';

/**
 * The outcome of loading a scenario file: the parsed scenario (durations in milliseconds, defaults
 * applied) with a way back to the lines of the file, or every issue found in it.
 */
export type ScenarioFileResult =
  | {
      ok: true;
      value: Scenario;
      file: string;
      /** The 1-based line of a JSON path in the file, so later checks (a duplicate name) can point at it too. */
      lineOf: (jsonPath: string) => number;
    }
  | {
      ok: false;
      file: string;
      /**
       * Every issue, never only the first (CONTRIBUTING.md rule 3), in file order; whoever shows them
       * lists the first `MAX_LISTED_ISSUES` (ScenarioFileError, the control API).
       */
      issues: ScenarioFileIssue[];
      /** The underlying error: the file system's, the YAML parser's, or zod's. */
      cause: unknown;
    };

/** Options of {@link parseScenarioSource}. */
export interface ScenarioSource {
  /** The file's text, YAML or JSON (JSON is read as YAML 1.2, of which it is a subset). */
  text: string;
  /** The name issues report, such as `scenarios/happy-partners.yaml` or `POST /_mock/scenarios`. */
  file: string;
}

/**
 * Reads a scenario file (`.yaml`, `.yml` or `.json`) and checks it with the {@link Scenario} schema.
 * Nothing is thrown: a missing file, a YAML syntax error and schema issues all come back as issues
 * with the file, the line and the JSON path, for the caller to report together with other files'.
 * A path that is not a regular file (a FIFO, a directory, a device) and a file over
 * {@link MAX_SCENARIO_FILE_BYTES} are issues too, found before anything is read, so neither can
 * block or swamp start-up.
 *
 * @example
 * const result = loadScenarioFile('scenarios/partner-definitive-error.yaml');
 * if (!result.ok) throw new ScenarioFileError(result.file, result.issues, { cause: result.cause });
 */
export function loadScenarioFile(file: string): ScenarioFileResult {
  const read = readRegularFile({
    file,
    limit: MAX_SCENARIO_FILE_BYTES,
    expected: 'a scenario file',
    whenTooLarge: WHEN_SCENARIO_TOO_LARGE,
    // The loader of a directory reads every entry named like a scenario, so the entry may not be one the user named.
    whenNotRegular:
      'a scenario is read from a regular YAML or JSON file, so give the path of one; in a scenario directory, move this entry out or rename it so its name does not end in .yaml, .yml or .json',
  });
  if (read.ok) return parseScenarioSource({ text: read.text, file });
  if (read.code !== 'unreadable') return { ok: false, file, cause: undefined, issues: [{ file, path: '$', code: read.code, message: read.message }] };
  const error = read.cause as NodeJS.ErrnoException;
  const reason = error.code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${error.message})`;
  return { ok: false, file, cause: error, issues: [{ file, path: '$', code: 'unreadable_file', message: reason }] };
}

/**
 * Parses scenario text that did not come from disk (a control API body, a test) exactly as
 * {@link loadScenarioFile} parses a file, with the same {@link MAX_SCENARIO_FILE_BYTES} limit.
 */
export function parseScenarioSource({ text, file }: ScenarioSource): ScenarioFileResult {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_SCENARIO_FILE_BYTES) {
    const message = `the scenario is ${size} bytes, over the limit of ${describeBytes(MAX_SCENARIO_FILE_BYTES)} for a scenario; ${WHEN_SCENARIO_TOO_LARGE}`;
    return { ok: false, file, cause: undefined, issues: [{ file, path: '$', code: 'too_large', message }] };
  }
  const lineCounter = new LineCounter();
  // prettyErrors off: the message stays one sentence; the line and column come from the LineCounter.
  // uniqueKeys off: the library's duplicate check is quadratic in a mapping's keys; yamlDocumentIssues does it in one pass.
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  // Only the first syntax error: the parser's recovery after it is guesswork, and the errors that
  // follow (one broken bracket gives five) point at lines that are fine.
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    const message = /call stack/i.test(syntax.message) ? 'the document is nested too deeply to read' : syntax.message;
    return { ok: false, file, cause: syntax, issues: [{ file, line, column: col, path: '$', code: 'yaml_syntax', message: `YAML syntax error: ${message}` }] };
  }
  // Keys given twice leave the value in doubt, and too many aliases take long to resolve: both stop here, before the document is resolved.
  const documentIssues = yamlDocumentIssues(document, lineCounter, file);
  if (documentIssues.length > 0) return { ok: false, file, cause: undefined, issues: documentIssues };

  let value: unknown;
  try {
    value = document.toJS();
  } catch (error) {
    // An alias to an anchor that does not exist is found only when the document is resolved.
    return { ok: false, file, cause: error, issues: [{ file, line: 1, path: '$', code: 'yaml_syntax', message: `YAML error: ${(error as Error).message}` }] };
  }
  const lineOf = jsonPathLocator(document, lineCounter);
  if (value === null || value === undefined) {
    return {
      ok: false,
      file,
      cause: undefined,
      issues: [
        {
          file,
          line: 1,
          path: '$',
          code: 'empty_file',
          message: 'the file is empty; a scenario needs at least name, description and entity (see docs/scenarios.md)',
        },
      ],
    };
  }

  if (typeof value === 'object' && 'generated' in value) {
    // A generated shape with parameters: bvs-mock writes the tree, checked as a file's.
    const generated = scenarioFromGeneratedSource(value);
    if (generated.ok) return { ok: true, value: generated.value, file, lineOf };
    const issues = generated.issues.map((issue): ScenarioFileIssue => ({ ...issue, file, line: lineOf(issue.path) }));
    return { ok: false, file, issues, cause: undefined };
  }
  const parsed = Scenario.safeParse(value, PARSE_OPTIONS);
  if (parsed.success) return { ok: true, value: parsed.data, file, lineOf };
  // In file order, so a reader fixes the file from top to bottom (Array.prototype.sort is stable).
  const issues = toIssues(parsed.error)
    .map((issue): ScenarioFileIssue => ({ ...issue, file, line: lineOf(issue.path) }))
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ok: false, file, issues, cause: parsed.error };
}

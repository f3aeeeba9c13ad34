import { displayPath } from './scenario-file-issue';
import type { ScenarioFileError } from './scenario-file-error';
import type { ScenarioFileIssue } from './scenario-file-issue';

/**
 * Scenario files that stop start-up, all of them at once: a user with three broken files learns
 * about the three in one run rather than one per restart (CONTRIBUTING.md rule 3, stripe-mock's "fail at start").
 */
export class ScenarioLibraryError extends Error {
  override readonly name = 'ScenarioLibraryError';
  /** One error per file that has issues, in the order the files were read. */
  readonly errors: readonly ScenarioFileError[];

  constructor(errors: readonly ScenarioFileError[]) {
    const count = errors.reduce((total, error) => total + error.issues.length, 0);
    const files = errors.map((error) => displayPath(error.file));
    super(
      `bvs-mock: ${count} ${count === 1 ? 'problem' : 'problems'} in ${files.length === 1 ? 'scenario file' : `${files.length} scenario files`} ` +
        `(${files.join(', ')}); fix ${count === 1 ? 'it' : 'them'} and start again (the format is in docs/scenarios.md):\n` +
        errors.map((error) => error.message).join('\n'),
      { cause: errors[0] },
    );
    this.errors = errors;
  }

  /** Every issue of every file, in order. */
  get issues(): ScenarioFileIssue[] {
    return this.errors.flatMap((error) => [...error.issues]);
  }
}

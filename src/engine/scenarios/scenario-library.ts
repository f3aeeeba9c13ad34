import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Issue, ParseResult, Scenario } from '../../schemas';
import { PACKAGE_ROOT } from '../../package-root';
import { loadScenarioFile } from './load-scenario-file';
import { ScenarioFileError } from './scenario-file-error';
import type { ScenarioFileIssue } from './scenario-file-issue';
import { ScenarioLibraryError } from './scenario-library-error';
import { scenarioTins, tinKey } from './scenario-tins';

/**
 * The package's `scenarios/` folder. This file runs from `src/engine/scenarios` under jest and from
 * `dist/engine/scenarios` once built; both are three levels below the package root.
 */
export const BUILT_IN_SCENARIOS_DIR = path.join(PACKAGE_ROOT, 'scenarios');

/**
 * The built-in scenarios parsed at the image's build, beside the one-file bundle (scripts/bundle-server.js).
 * Looked for beside the running code, so only the bundle uses it: dist/ and src/ always parse the files.
 */
/** @public The prebuilt library's file name, which scripts/bundle-server.js writes beside the bundle. */
export const PREBUILT_SCENARIOS_FILE = 'built-in-scenarios.json';

/** The files {@link ScenarioLibrary.loadDirectory} reads. */
const SCENARIO_FILE = /\.(ya?ml|json)$/i;

/** A scenario as `bvs-mock scenarios` and `GET /_mock/scenarios` list it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  /** The TINs that select it on create. */
  tins: string[];
  /** The file it came from, or how it was added (`POST /_mock/scenarios`). */
  source: string;
  /** Whether it is one of the package's own scenarios. */
  builtIn: boolean;
}

/** Options of {@link ScenarioLibrary.add}. */
export interface AddScenarioOptions {
  /** Where the scenario came from, shown by {@link ScenarioLibrary.list} and in conflicts. Default: `added at run time`. */
  source?: string;
  /** Replace a scenario of the same name instead of refusing it. Default false. */
  override?: boolean;
  /** Kept by a reset and not removable, like a `--scenarios` directory's (a session's own scenarios). Default false: added at run time. */
  permanent?: boolean;
}

/** Options of {@link ScenarioLibrary.loadDirectory}. */
export interface LoadDirectoryOptions {
  /**
   * Let this directory's scenarios replace scenarios of the same name loaded before (the built-in
   * ones, or an earlier directory's). Default false: a clash is an error, since silently playing a
   * different `happy-partners` than the docs describe would mislead. Two files of the same
   * directory never override each other.
   */
  override?: boolean;
}

interface Entry {
  scenario: Scenario;
  source: string;
  builtIn: boolean;
  /** Whether `source` is a file path (as its directory was given) or a label; such a scenario stays through a reset. */
  fromFile: boolean;
  /** Given when the world was made (a session's `scenarios`): kept by a reset like a file's, and part of the world's snapshot. */
  kept?: boolean;
  /** Which load added it, so files of one directory cannot override each other. */
  batch: number;
}

/**
 * The scenarios a server plays, by name (`X-Mock-Scenario: NAME`) and by TIN. Loading is
 * all-or-nothing: a directory with any bad file adds nothing and throws one
 * {@link ScenarioLibraryError} listing the issues of every file.
 *
 * @example
 * const library = ScenarioLibrary.builtIn();
 * library.loadDirectory('./my-scenarios');
 * library.forTin('76086428-5')?.name; // 'partner-definitive-error'
 */
export class ScenarioLibrary {
  private names = new Map<string, Entry>();
  private tins = new Map<string, Entry>();
  private batches = 0;

  /** A library holding the package's built-in scenarios (`scenarios/*.yaml`, see docs/scenarios.md). */
  static builtIn(): ScenarioLibrary {
    const library = new ScenarioLibrary();
    if (!library.loadPrebuilt()) library.load(BUILT_IN_SCENARIOS_DIR, { override: false, builtIn: true });
    return library;
  }

  /**
   * The built-in scenarios as the container image's build parsed and checked them (bundle/built-in-scenarios.json,
   * written by scripts/bundle-server.js), which saves a start parsing YAML: used only when every file's content
   * hash still matches, so an edited scenario file is always read afresh. False when there is none to use.
   */
  private loadPrebuilt(): boolean {
    const file = path.join(__dirname, PREBUILT_SCENARIOS_FILE);
    if (!existsSync(file)) return false;
    try {
      const prebuilt = JSON.parse(readFileSync(file, 'utf8')) as Array<{ file: string; sha256: string; scenario: Scenario }>;
      const batch = ++this.batches;
      const entries = prebuilt.map(({ file: name, sha256, scenario }) => {
        const source = path.join(BUILT_IN_SCENARIOS_DIR, name);
        if (createHash('sha256').update(readFileSync(source)).digest('hex') !== sha256) throw new Error(`${name} changed since the build`);
        return { scenario, source, builtIn: true, fromFile: true, batch };
      });
      const names = new Set(readdirSync(BUILT_IN_SCENARIOS_DIR).filter((name) => SCENARIO_FILE.test(name)));
      if (names.size !== entries.length) return false;
      for (const entry of entries) this.put(entry);
      return true;
    } catch {
      this.names.clear();
      this.tins.clear();
      return false;
    }
  }

  /**
   * Loads every `*.yaml`, `*.yml` and `*.json` file of `dir` (not its subfolders), in name order.
   * Throws a {@link ScenarioLibraryError} with the issues of all files when any is bad, a name is
   * used twice, or a TIN is claimed twice; the library is then unchanged. An entry so named that is
   * not a regular file (a FIFO, a directory, a device) is such an issue, not skipped, and so is a
   * file over `MAX_SCENARIO_FILE_BYTES`. Symbolic links are followed; dangling ones are left out.
   */
  loadDirectory(dir: string, options: LoadDirectoryOptions = {}): void {
    this.load(dir, { override: options.override ?? false, builtIn: false });
  }

  /**
   * Adds one parsed scenario (one posted to `POST /_mock/scenarios`). Refuses, with an issue saying
   * which scenario is in the way, a name already in use (unless `override`) or a TIN claimed by
   * another scenario. `options` may be the source alone.
   */
  add(scenario: Scenario, options: AddScenarioOptions | string = {}): ParseResult<Scenario> {
    const { source = 'added at run time', override = false, permanent = false } = typeof options === 'string' ? { source: options } : options;
    const entry: Entry = { scenario, source, builtIn: false, fromFile: permanent, kept: permanent, batch: ++this.batches };
    const issues = this.conflicts(entry, override);
    if (issues.length > 0) return { ok: false, issues };
    this.put(entry);
    return { ok: true, value: scenario };
  }

  /**
   * Removes a scenario added at run time (`POST /_mock/scenarios`); built-in scenarios and those of
   * `--scenarios` directories stay: `not_removable`. Validations already playing it go on.
   */
  remove(name: string): 'removed' | 'not_found' | 'not_removable' {
    const entry = this.names.get(name);
    if (entry === undefined) return 'not_found';
    if (entry.builtIn || entry.fromFile) return 'not_removable';
    this.names.delete(name);
    for (const tin of scenarioTins(entry.scenario)) if (this.tins.get(tinKey(tin)) === entry) this.tins.delete(tinKey(tin));
    return 'removed';
  }

  /**
   * The scenarios added to this world, not loaded from the package or a directory, with their sources, in the
   * order they were added (a world's snapshot): those added at run time, and those given when it was made (`kept`).
   */
  runTimeScenarios(): Array<{ scenario: Scenario; source: string; kept?: true }> {
    return [...this.names.values()]
      .filter((entry) => !entry.builtIn && (!entry.fromFile || entry.kept === true))
      .sort((a, b) => a.batch - b.batch)
      .map(({ scenario, source, kept }) => (kept === true ? { scenario, source, kept } : { scenario, source }));
  }

  /** Removes every scenario added at run time, as a reset of the mock does (docs/fidelity.md row 84). */
  clearRunTime(): void {
    for (const [name, entry] of [...this.names]) if (!entry.builtIn && !entry.fromFile) this.remove(name);
  }

  /** The scenario of that name, or undefined. */
  byName(name: string): Scenario | undefined {
    return this.names.get(name)?.scenario;
  }

  /** Every scenario's name. */
  scenarioNames(): IterableIterator<string> {
    return this.names.keys();
  }

  /** The scenario that claims this TIN (compared without dots and spaces, in upper case), or undefined. */
  forTin(tin: string): Scenario | undefined {
    return this.tins.get(tinKey(tin))?.scenario;
  }

  /** Every scenario, in name order. */
  list(): ScenarioSummary[] {
    return [...this.names.values()]
      .sort((a, b) => (a.scenario.name < b.scenario.name ? -1 : 1))
      .map((entry) => ({
        name: entry.scenario.name,
        description: entry.scenario.description,
        tins: scenarioTins(entry.scenario),
        source: shownSource(entry),
        builtIn: entry.builtIn,
      }));
  }

  /** How many scenarios the library holds. */
  get size(): number {
    return this.names.size;
  }

  private load(dir: string, { override, builtIn }: { override: boolean; builtIn: boolean }): void {
    let files: string[];
    try {
      // Every entry named like a scenario, whatever it is: loadScenarioFile refuses a FIFO, a
      // directory or a device so named with an issue, rather than this filter skipping it in
      // silence (a user who put `x.yaml` here expects it played), and without blocking on a FIFO.
      // A symbolic link is followed, so a linked scenario file loads; a dangling one is left out,
      // since editors make them as lock files while a scenario is open (Emacs: `.#x.yaml`).
      files = readdirSync(dir, { withFileTypes: true })
        .filter((item) => SCENARIO_FILE.test(item.name) && !(item.isSymbolicLink() && !existsSync(path.join(dir, item.name))))
        .map((item) => item.name)
        .sort()
        .map((name) => path.join(dir, name));
    } catch (error) {
      const issue: ScenarioFileIssue = {
        file: dir,
        path: '$',
        code: 'unreadable_directory',
        message: `cannot read the scenario directory (${(error as Error).message}); give a directory of *.yaml files`,
      };
      throw new ScenarioLibraryError([new ScenarioFileError(dir, [issue], { cause: error })]);
    }

    // Staged on a copy, so a directory with any bad file leaves the library as it was.
    const staged = this.copy();
    const batch = ++staged.batches;
    const errors: ScenarioFileError[] = [];
    for (const file of files) {
      const result = loadScenarioFile(file);
      if (!result.ok) {
        errors.push(new ScenarioFileError(file, result.issues, { cause: result.cause }));
        continue;
      }
      const entry: Entry = { scenario: result.value, source: file, builtIn, fromFile: true, batch };
      const issues = staged.conflicts(entry, override);
      if (issues.length > 0) {
        errors.push(
          new ScenarioFileError(
            file,
            issues.map((issue) => ({ ...issue, file, line: result.lineOf(issue.path) })),
          ),
        );
        continue;
      }
      staged.put(entry);
    }
    if (errors.length > 0) throw new ScenarioLibraryError(errors);
    this.names = staged.names;
    this.tins = staged.tins;
    this.batches = staged.batches;
  }

  private conflicts(entry: Entry, override: boolean): Issue[] {
    const { scenario } = entry;
    const issues: Issue[] = [];
    const existing = this.names.get(scenario.name);
    const replaces = existing !== undefined && override && existing.batch !== entry.batch;
    if (existing !== undefined && !replaces) {
      issues.push({ path: '$.name', code: 'duplicate_scenario_name', message: duplicateNameMessage(scenario.name, existing, existing.batch === entry.batch) });
    }
    for (const tin of scenarioTins(scenario)) {
      const owner = this.tins.get(tinKey(tin));
      if (owner === undefined || (replaces && owner === existing)) continue;
      issues.push({
        path: scenario.tins === undefined ? '$.entity.tin' : `$.tins[${scenario.tins.indexOf(tin)}]`,
        code: 'duplicate_scenario_tin',
        message: `TIN ${tin} is already claimed by scenario "${owner.scenario.name}" (${describeSource(owner)}); a TIN selects one scenario, so give "${scenario.name}" another TIN`,
      });
    }
    return issues;
  }

  private put(entry: Entry): void {
    const replaced = this.names.get(entry.scenario.name);
    if (replaced !== undefined) {
      for (const tin of scenarioTins(replaced.scenario)) {
        if (this.tins.get(tinKey(tin)) === replaced) this.tins.delete(tinKey(tin));
      }
    }
    this.names.set(entry.scenario.name, entry);
    for (const tin of scenarioTins(entry.scenario)) this.tins.set(tinKey(tin), entry);
  }

  private copy(): ScenarioLibrary {
    const copy = new ScenarioLibrary();
    copy.names = new Map(this.names);
    copy.tins = new Map(this.tins);
    copy.batches = this.batches;
    return copy;
  }
}

function duplicateNameMessage(name: string, existing: Entry, sameDirectory: boolean): string {
  const prefix = `scenario name "${name}" is already used by ${describeSource(existing)}`;
  if (sameDirectory) return `${prefix}; names are unique, so rename one of the two`;
  if (existing.builtIn) return `${prefix}; rename this scenario, or load its directory with override: true to replace the built-in one`;
  return `${prefix}; rename this scenario, or pass override: true to replace the earlier one`;
}

function describeSource(entry: Entry): string {
  return entry.builtIn ? `the built-in scenario (${shownSource(entry)})` : shownSource(entry);
}

/**
 * Where a scenario came from, as the list and conflict messages show it: a built-in one by its file in the
 * package (`built-in scenarios/happy-partners.yaml`), a loaded one by the path the user gave (the
 * directory as given, joined with the file's name), never by where the package happens to be installed:
 * `GET /_mock/scenarios` and a refused upload answer any caller of the control API.
 */
function shownSource(entry: Entry): string {
  if (entry.builtIn) return `built-in scenarios/${path.basename(entry.source)}`;
  return entry.source;
}

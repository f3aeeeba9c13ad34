/**
 * Scenarios: loading scenario files with line-precise errors, the library the engine chooses from
 * (by name and by TIN), and the trees generated for every other TIN. See docs/scenarios.md.
 */
export { loadScenarioFile, parseScenarioSource, type ScenarioFileResult, type ScenarioSource } from './load-scenario-file';
export { ScenarioFileError } from './scenario-file-error';
export { type ScenarioFileIssue } from './scenario-file-issue';
export { ScenarioLibrary, BUILT_IN_SCENARIOS_DIR, type AddScenarioOptions, type LoadDirectoryOptions, type ScenarioSummary } from './scenario-library';
export { ScenarioLibraryError } from './scenario-library-error';
export { scenarioTins } from './scenario-tins';
export { generateScenario, generateScenarioInput, type GenerateScenarioOptions } from './generate-scenario';
export { formatRut, isValidRut, rutCheckDigit } from './chilean-rut';

import { parseScenarioSource, type ScenarioSummary } from '../../engine/scenarios';
import { MAX_SCENARIO_FILE_BYTES, WHEN_SCENARIO_TOO_LARGE } from '../../engine/scenarios/load-scenario-file';
import { describeBytes } from '../../files/read-regular-file';
import { ScenarioList, ScenarioListing, z } from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { jsonDepthIssue, mediaType } from '../read-body';
import type { Route } from '../router';

const SOURCE = 'POST /_mock/scenarios';
/**
 * The media types a scenario is taken in. Never `text/plain`: a web page may send it with a no-cors request,
 * without the preflight every other type needs, so taking it let any open page add scenarios (docs/fidelity.md row 103).
 */
const SCENARIO_TYPES = new Set(['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']);

/** A scenario as the control API shows it (snake_case, as every body). */
function summary(scenario: ScenarioSummary) {
  return { name: scenario.name, description: scenario.description, tins: scenario.tins, source: scenario.source, built_in: scenario.builtIn };
}

/**
 * `GET /_mock/scenarios` lists the scenarios with their TINs; `POST` adds one at run time, as YAML or JSON;
 * `DELETE /_mock/scenarios/:name` removes one added at run time (a reset removes them all).
 */
export const scenarioRoutes = [
  {
    method: 'GET',
    pattern: '/_mock/scenarios',
    operation: 'control.scenarios.list',
    access: { kind: 'control' },
    document: {
      tags: ['Scenarios'],
      summary: 'The scenarios and their TINs',
      description:
        'Built in, from `--scenarios` directories, and added at run time; a create call with one of its TINs (or `X-Mock-Scenario: <name>`) plays it.',
      answer: { status: 200, description: 'The scenarios.', schema: ScenarioList },
    },
    handle: (context) => jsonResponse(200, { scenarios: context.world.scenarios.list().map(summary) }),
  },
  {
    method: 'POST',
    pattern: '/_mock/scenarios',
    operation: 'control.scenarios.add',
    access: { kind: 'control' },
    document: {
      tags: ['Scenarios'],
      summary: 'Add a scenario at run time',
      description: `A scenario file, as YAML or JSON (docs/design.md, Scenarios), or a generated shape with parameters, \`{ name, tin, country, generated: "partners=5&fail=partner-3:definitive" }\` (docs/scenarios.md "Parameters at create time"), of at most ${describeBytes(MAX_SCENARIO_FILE_BYTES)} (413 \`payload_too_large\` above, docs/fidelity.md row 97). Problems are answered at their JSON paths, with their lines (the first 100, and \`issues_omitted\`); a name or TIN already taken is a conflict. A reset removes it.`,
      body: {
        schema: z.record(z.string(), z.unknown()).openapi({ description: 'A scenario file, or a generated shape with parameters (docs/scenarios.md).' }),
        otherContentTypes: ['application/yaml'],
      },
      answer: { status: 201, description: 'The scenario as listed.', schema: ScenarioListing },
      errors: ['conflict'],
    },
    handle(context) {
      const type = mediaType(context.request);
      if (type === undefined || !SCENARIO_TYPES.has(type))
        throw problems.unsupportedMediaType(
          context.request.headers['content-type'],
          'a scenario as application/yaml or application/json (text/plain is refused, as any web page can send it)',
        );
      // Refused from its size, before a byte is parsed: parsing holds the event loop (docs/fidelity.md row 97).
      const size = context.request.body.length;
      if (size > MAX_SCENARIO_FILE_BYTES) throw problems.scenarioTooLarge(size, describeBytes(MAX_SCENARIO_FILE_BYTES), WHEN_SCENARIO_TOO_LARGE);
      const parsed = parseScenarioSource({ text: context.request.body.toString('utf8'), file: SOURCE });
      if (!parsed.ok) {
        // The line of each problem goes into its message: the error shape has no field for it.
        const issues = parsed.issues.map(({ path, code, message, line, column }) => ({
          path,
          code,
          message: line === undefined ? message : `line ${line}${column === undefined ? '' : `:${column}`}: ${message}`,
        }));
        throw problems.validationFailed(issues, 'scenario');
      }
      // A JSON body was held to MAX_JSON_DEPTH when it was parsed; YAML gets the same limit here, so a
      // scenario cannot store an information sheet or records that later break every read.
      const tooDeep = jsonDepthIssue(parsed.value);
      if (tooDeep !== undefined) throw problems.validationFailed([tooDeep], 'scenario');
      const result = context.world.scenarios.add(parsed.value, SOURCE);
      if (!result.ok) throw problems.scenarioConflict(result.issues);
      const added = context.world.scenarios.list().find((candidate) => candidate.name === parsed.value.name)!;
      return jsonResponse(201, summary(added));
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/scenarios/:name',
    operation: 'control.scenarios.remove',
    access: { kind: 'control' },
    document: {
      tags: ['Scenarios'],
      summary: 'Remove a scenario added at run time',
      description: 'Built-in scenarios and those of `--scenarios` directories stay (conflict).',
      params: z.object({ name: z.string().openapi({ description: 'The scenario name, like `my-scenario`.' }) }),
      answer: { status: 204, description: 'Removed.' },
      errors: ['not_found', 'conflict'],
    },
    handle(context) {
      const name = context.params.name!;
      const library = context.world.scenarios;
      const outcome = library.remove(name);
      if (outcome === 'not_found') throw problems.unknownScenarioName(name, [...library.scenarioNames()]);
      if (outcome === 'not_removable')
        throw problems.conflict(
          `Scenario "${name}" is built in or comes from a --scenarios directory; only scenarios added with POST /_mock/scenarios can be removed.`,
        );
      return { status: 204, headers: {}, body: '' };
    },
  },
] as const satisfies readonly Route[];

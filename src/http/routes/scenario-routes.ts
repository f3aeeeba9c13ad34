import { parseScenarioSource } from '../../engine/scenarios';
import { ApiProblem, problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { mediaType } from '../read-body';
import type { Route } from '../router';

const SOURCE = 'POST /_mock/scenarios';
const TEXT_TYPES = new Set(['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml', 'text/plain']);

/** `GET /_mock/scenarios` lists the scenarios with their TINs; `POST` adds one at run time, as YAML or JSON. */
export const scenarioRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/_mock/scenarios',
    operation: 'control.scenarios.list',
    access: { kind: 'control' },
    handle: (context) => jsonResponse(200, { scenarios: context.services.scenarios.list() }),
  },
  {
    method: 'POST',
    pattern: '/_mock/scenarios',
    operation: 'control.scenarios.add',
    access: { kind: 'control' },
    handle(context) {
      const type = mediaType(context.request);
      if (type === undefined || !TEXT_TYPES.has(type)) throw problems.unsupportedMediaType(context.request.headers['content-type'], 'a scenario as application/yaml or application/json');
      const parsed = parseScenarioSource({ text: context.request.body.toString('utf8'), file: SOURCE });
      if (!parsed.ok) throw problems.validationFailed(parsed.issues.map(({ path, code, message }) => ({ path, code, message })), 'scenario');
      const added = context.services.scenarios.add(parsed.value, SOURCE);
      if (!added.ok) throw new ApiProblem('conflict', `The scenario cannot be added: ${added.issues.map((issue) => issue.message).join('; ')}`, added.issues);
      const summary = context.services.scenarios.list().find((candidate) => candidate.name === parsed.value.name);
      return jsonResponse(201, summary);
    },
  },
];

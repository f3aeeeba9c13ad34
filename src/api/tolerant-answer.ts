import { tolerantAnswer } from '../delivery/tolerance';
import type { World } from '../world/world';
import { JSON_CONTENT_TYPE, type CoreRequest, type CoreResponse } from './core-types';
import type { Route } from './router';

/**
 * An API answer as the service may send it tomorrow (tolerance mode, docs/fidelity.md row 89): a successful JSON
 * answer of an API operation gains fields the contract does not list and, where the spec lists only the values
 * seen, values it does not list (src/delivery/tolerance.ts), when the world is in tolerance mode (`--tolerance`, a
 * session's `tolerance`) or the validation read was made by a scenario with `tolerance: true`. The token endpoint,
 * files and the control API answer as always; so does every answer out of tolerance mode, byte for byte.
 */
export function tolerateAnswer(world: World, route: Route | undefined, request: CoreRequest, response: CoreResponse): CoreResponse {
  if (route === undefined || route.access.kind !== 'api' || response.status < 200 || response.status >= 300) return response;
  if (response.headers['content-type'] !== JSON_CONTENT_TYPE || response.stream !== undefined) return response;
  const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
  // Out of tolerance mode nothing is parsed: a validation's answer starts with its id.
  if (!world.tolerance && !scenarioTolerant(world, text)) return response;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return response;
  }
  return { ...response, body: JSON.stringify(tolerantAnswer(body, world.seed, `${request.method} ${request.path}`)) };
}

/** A validation's answer, of a validation whose scenario asks for tolerance mode. */
function scenarioTolerant(world: World, text: string): boolean {
  const id = /^\{"id":"(evl_[^"]+)"/.exec(text.slice(0, 80))?.[1];
  return id !== undefined && world.engine.scenarioFor(id)?.tolerance === true;
}

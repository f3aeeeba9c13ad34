import { buildOpenApiDocument, documentToJson, documentToYaml } from '../../openapi';
import type { Route } from '../router';

/** `GET /openapi.json` and `/openapi.yaml`: the document, built once on first use. */
export function openApiRoutes(): Route[] {
  let texts: { json: string; yaml: string } | undefined;
  const document = () => {
    if (!texts) {
      const built = buildOpenApiDocument();
      texts = { json: documentToJson(built), yaml: documentToYaml(built) };
    }
    return texts;
  };
  return [
    {
      method: 'GET',
      pattern: '/openapi.json',
      operation: 'control.openapi.json',
      access: { kind: 'public' },
      handle: () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: document().json }),
    },
    {
      method: 'GET',
      pattern: '/openapi.yaml',
      operation: 'control.openapi.yaml',
      access: { kind: 'public' },
      handle: () => ({ status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: document().yaml }),
    },
  ];
}

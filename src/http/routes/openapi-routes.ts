import { z } from 'zod';
import { buildControlDocument, buildOpenApiDocument, documentToJson, documentToYaml, type OpenApiDocument } from '../../openapi';
import type { CoreResponse } from '../core-types';
import type { Route } from '../router';

/** A document's two texts, built once on first use. */
function texts(build: () => OpenApiDocument): (format: 'json' | 'yaml') => CoreResponse {
  let built: { json: string; yaml: string } | undefined;
  return (format) => {
    if (!built) {
      const document = build();
      built = { json: documentToJson(document), yaml: documentToYaml(document) };
    }
    return format === 'json'
      ? { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: built.json }
      : { status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, body: built.yaml };
  };
}

/** `GET /openapi.json` and `/openapi.yaml`: the API's document. */
export function apiDocumentRoutes(): Route[] {
  const answer = texts(buildOpenApiDocument);
  return [
    { method: 'GET', pattern: '/openapi.json', operation: 'control.openapi.json', access: { kind: 'public' }, pure: true, handle: () => answer('json') },
    { method: 'GET', pattern: '/openapi.yaml', operation: 'control.openapi.yaml', access: { kind: 'public' }, pure: true, handle: () => answer('yaml') },
  ];
}

/** `GET /_mock/openapi.json` and `/_mock/openapi.yaml`: the control API's own document (openapi/control.yaml), open under `--control-token`. */
export function controlDocumentRoutes() {
  const answer = texts(buildControlDocument);
  const document = (format: 'json' | 'yaml') => ({
    tags: ['Documents'],
    summary: `The control API's OpenAPI document, as ${format.toUpperCase()}`,
    description:
      'This document: every control API operation, built from the same zod schemas and routes as bvs-mock itself, for generating a client in any language. Open even when the control API is locked.',
    answer: {
      status: 200 as const,
      description: 'An OpenAPI 3.1 document.',
      schema: z.record(z.string(), z.unknown()),
      contentType: format === 'json' ? 'application/json' : 'application/yaml',
    },
  });
  return [
    {
      method: 'GET',
      pattern: '/_mock/openapi.json',
      operation: 'control.document.json',
      access: { kind: 'control' },
      pure: true,
      document: document('json'),
      handle: () => answer('json'),
    },
    {
      method: 'GET',
      pattern: '/_mock/openapi.yaml',
      operation: 'control.document.yaml',
      access: { kind: 'control' },
      pure: true,
      document: document('yaml'),
      handle: () => answer('yaml'),
    },
  ] as const satisfies readonly Route[];
}

import { z } from 'zod';
import type { CoreResponse } from '../core-types';
import type { RouteContext } from '../route-context';
import type { Route } from '../router';

/** One document's text, from the mock's own {@link DocumentTexts} (src/openapi/document-texts.ts). */
function answer(context: RouteContext, which: 'api' | 'control', format: 'json' | 'yaml'): CoreResponse {
  const type = format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8';
  return { status: 200, headers: { 'content-type': type }, body: context.server.documents(which, format) };
}

/** `GET /openapi.json` and `/openapi.yaml`: the API's document. */
export function apiDocumentRoutes(): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/openapi.json',
      operation: 'control.openapi.json',
      access: { kind: 'public' },
      pure: true,
      handle: (context) => answer(context, 'api', 'json'),
    },
    {
      method: 'GET',
      pattern: '/openapi.yaml',
      operation: 'control.openapi.yaml',
      access: { kind: 'public' },
      pure: true,
      handle: (context) => answer(context, 'api', 'yaml'),
    },
  ];
}

/** `GET /_mock/openapi.json` and `/_mock/openapi.yaml`: the control API's own document (openapi/control.yaml), open under `--control-token`. */
export function controlDocumentRoutes() {
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
      handle: (context) => answer(context, 'control', 'json'),
    },
    {
      method: 'GET',
      pattern: '/_mock/openapi.yaml',
      operation: 'control.document.yaml',
      access: { kind: 'control' },
      pure: true,
      document: document('yaml'),
      handle: (context) => answer(context, 'control', 'yaml'),
    },
  ] as const satisfies readonly Route[];
}

import type { DocumentTexts } from '../api/server-settings';
import { buildOpenApiDocument, type OpenApiDocument } from './build-document';
import { buildControlDocument } from './build-control-document';
import { documentToJson, documentToYaml } from './serialize-document';

/**
 * The texts `GET /openapi.{json,yaml}` and `GET /_mock/openapi.{json,yaml}` answer, each document built on
 * first use and kept by the one mock that asked for it.
 */
export function documentTexts(): DocumentTexts {
  const built = new Map<'api' | 'control', { json: string; yaml: string }>();
  const builders: Record<'api' | 'control', () => OpenApiDocument> = { api: buildOpenApiDocument, control: buildControlDocument };
  return (which, format) => {
    let texts = built.get(which);
    if (!texts) {
      const document = builders[which]();
      texts = { json: documentToJson(document), yaml: documentToYaml(document) };
      built.set(which, texts);
    }
    return texts[format];
  };
}

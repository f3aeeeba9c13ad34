import { stringify } from 'yaml';
import type { OpenApiDocument } from './build-document';

/** The document as JSON text, two-space indented, with a final newline. */
export function documentToJson(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The document as YAML text. Anchors are never used, so every schema reads on its own. */
export function documentToYaml(document: OpenApiDocument): string {
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}

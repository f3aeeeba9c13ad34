import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from './build-document';
import { documentToJson, documentToYaml } from './serialize-document';

/** Where the committed document lives, relative to the package root. */
export const DOCUMENT_DIR = 'openapi';

/** Writes `openapi.yaml` and `openapi.json` into `dir` and returns their paths. */
export function writeDocument(dir: string): string[] {
  const document = buildOpenApiDocument();
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    [join(dir, 'openapi.yaml'), documentToYaml(document)],
    [join(dir, 'openapi.json'), documentToJson(document)],
  ];
  for (const [path, text] of files) writeFileSync(path, text);
  return files.map(([path]) => path);
}

if (require.main === module) {
  for (const path of writeDocument(join(__dirname, '..', '..', DOCUMENT_DIR))) console.log(`bvs-mock: wrote ${path}`);
}

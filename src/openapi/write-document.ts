import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildControlDocument } from './build-control-document';
import { buildOpenApiDocument } from './build-document';
import { buildToolsDocument } from './build-tools-document';
import { documentToJson, documentToYaml } from './serialize-document';

/** Where the committed document lives, relative to the package root. */
export const DOCUMENT_DIR = 'openapi';

/**
 * Writes the API's document (`openapi.yaml`, `openapi.json`), the control API's (`control.yaml`, `control.json`) and the
 * tools' (`tools.yaml`, `tools.json`: `bvs-mock listen`) into `dir` and returns their paths.
 */
export function writeDocument(dir: string): string[] {
  const document = buildOpenApiDocument();
  const control = buildControlDocument();
  const tools = buildToolsDocument();
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    [join(dir, 'openapi.yaml'), documentToYaml(document)],
    [join(dir, 'openapi.json'), documentToJson(document)],
    [join(dir, 'control.yaml'), documentToYaml(control)],
    [join(dir, 'control.json'), documentToJson(control)],
    [join(dir, 'tools.yaml'), documentToYaml(tools)],
    [join(dir, 'tools.json'), documentToJson(tools)],
  ];
  for (const [path, text] of files) writeFileSync(path, text);
  return files.map(([path]) => path);
}

if (require.main === module) {
  for (const path of writeDocument(join(__dirname, '..', '..', DOCUMENT_DIR))) console.log(`bvs-mock: wrote ${path}`);
}

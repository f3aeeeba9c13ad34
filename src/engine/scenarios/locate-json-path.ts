import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { jsonPathSegments } from '../../schemas';

/**
 * The 1-based line of the node a JSON path names in a parsed YAML (or JSON) document, or of its
 * nearest existing ancestor when the path goes further than the file (a missing field is reported
 * on the object that lacks it). A path ending at a key points at the key, which is where a reader
 * looks for an unknown or misspelt field.
 */
export function lineOfJsonPath(document: Document, lineCounter: LineCounter, jsonPath: string): number {
  let node: unknown = document.contents;
  let offset = rangeStart(node) ?? 0;
  for (const segment of jsonPathSegments(jsonPath)) {
    if (isAlias(node)) node = node.resolve(document);
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === String(segment));
      if (pair === undefined) break;
      offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return lineCounter.linePos(offset).line;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

import { isAlias, isMap, isScalar, isSeq, visit, type Alias, type Document, type LineCounter, type Node, type Pair, type YAMLMap } from 'yaml';
import { jsonPathSegments } from '../../schemas';

/**
 * A function giving the 1-based line of the node a JSON path names in a parsed YAML (or JSON)
 * document, or of its nearest existing ancestor when the path goes further than the file (a missing
 * field is reported on the object that lacks it). A path ending at a key points at the key, which is
 * where a reader looks for an unknown or misspelt field.
 *
 * Made once per document: a mapping's keys are indexed the first time a path goes through it, and
 * every alias is resolved in one walk the first time a path meets one, so locating all the issues of
 * a file costs time linear in the file and their number. Looking each key up by scanning its mapping
 * (and each alias by searching the document) made 70,000 issues in one mapping take over a minute.
 *
 * @example
 * const lineOf = jsonPathLocator(document, lineCounter);
 * lineOf('$.entity.partners[0].tin'); // 15
 */
export function jsonPathLocator(document: Document, lineCounter: LineCounter): (jsonPath: string) => number {
  const keyIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();
  let aliasTargets: Map<Alias, Node> | undefined;

  const pairOf = (map: YAMLMap, key: string): Pair | undefined => {
    let index = keyIndexes.get(map);
    if (index === undefined) {
      index = new Map();
      for (const item of map.items) {
        const text = keyText(item.key);
        // The first of two equal keys, as a scan from the top would find it.
        if (text !== undefined && !index.has(text)) index.set(text, item as Pair);
      }
      keyIndexes.set(map, index);
    }
    return index.get(key);
  };

  return (jsonPath) => {
    let node: unknown = document.contents;
    let offset = rangeStart(node) ?? 0;
    for (const segment of jsonPathSegments(jsonPath)) {
      if (isAlias(node)) {
        aliasTargets ??= resolveAliases(document);
        node = aliasTargets.get(node);
      }
      if (isMap(node)) {
        const pair = pairOf(node, String(segment));
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
  };
}

/** Every alias of the document with the node it names: the last node before it with that anchor, as YAML resolves it. */
function resolveAliases(document: Document): Map<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const anchors = new Map<string, Node>();
  visit(document, {
    Node(_key, node) {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target !== undefined) targets.set(node, target);
      } else if (node.anchor !== undefined) anchors.set(node.anchor, node);
    },
  });
  return targets;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : undefined;
}

import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { toJsonPath } from '../../schemas';
import type { ScenarioFileIssue } from './scenario-file-issue';

/**
 * Most aliases (`*name`) a scenario may use. The YAML library resolves each alias by searching the
 * anchors and aliases before it, so their cost grows with the square of their number: 9,500 aliases
 * (256 KiB of `a: &1 1` / `b: *1` pairs) took a second to resolve, during which bvs-mock answers no
 * one. The built-in scenarios use none; a scenario that shares a run or a partner between places
 * needs a few dozen (docs/fidelity.md row 97).
 */
export const MAX_SCENARIO_ALIASES = 1_000;

/** A node still to visit, with the way back to the root for its JSON path (built only when an issue needs it). */
interface Frame {
  node: unknown;
  key: string | number | null;
  parent: Frame | null;
}

/**
 * What the YAML library's own checks would refuse in a parsed scenario, found in one pass: every key
 * given twice in one mapping (at the second one, naming the line of the first) and aliases beyond
 * {@link MAX_SCENARIO_ALIASES}. The library's duplicate check (`uniqueKeys`, off when the scenario is
 * parsed) compares each key with every key before it in its mapping: 70,000 keys took over a minute.
 * Here each mapping keeps a set of its keys. Keys are equal as the library has them: the same scalar
 * value (`1` and `"1"` differ). Issues come in file order.
 *
 * @example
 * yamlDocumentIssues(parseDocument('a: 1\na: 2\n', { uniqueKeys: false, lineCounter }), lineCounter, 'x.yaml');
 * // [{ file: 'x.yaml', line: 2, column: 1, path: '$.a', code: 'duplicate_key', message: '"a" is given twice in this mapping (first at line 1); ...' }]
 */
export function yamlDocumentIssues(document: Document, lineCounter: LineCounter, file: string): ScenarioFileIssue[] {
  const found: Array<{ offset: number; issue: ScenarioFileIssue }> = [];
  const at = (offset: number) => lineCounter.linePos(offset);
  /** Keeps an issue at `offset`, with its line and column, to sort by place at the end. */
  const report = (offset: number, path: string, code: ScenarioFileIssue['code'], message: string) => {
    const { line, col } = at(offset);
    found.push({ offset, issue: { file, line, column: col, path, code, message } });
  };
  let aliases = 0;
  const pending: Frame[] = [{ node: document.contents, key: null, parent: null }];
  while (pending.length > 0) {
    const frame = pending.pop()!;
    const { node } = frame;
    const children: Frame[] = [];
    if (isAlias(node)) {
      aliases += 1;
      if (aliases === MAX_SCENARIO_ALIASES + 1) {
        report(
          start(node),
          pathOf(frame),
          'too_many_aliases',
          `more than ${MAX_SCENARIO_ALIASES} aliases (*name) in the scenario, the limit of bvs-mock (docs/fidelity.md row 97); write the values out instead of referring to them`,
        );
      }
    } else if (isMap(node)) {
      const firstAt = new Map<unknown, number>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const text = isScalar(key) ? String(key.value) : '?';
        if (isScalar(key)) {
          const offset = start(key);
          const first = firstAt.get(key.value);
          if (first === undefined) firstAt.set(key.value, offset);
          else
            report(
              offset,
              pathOf({ node: pair.value, key: text, parent: frame }),
              'duplicate_key',
              `"${text}" is given twice in this mapping (first at line ${at(first).line}); a key may appear once, so remove or rename one`,
            );
        }
        children.push({ node: pair.value, key: text, parent: frame });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => children.push({ node: item, key: index, parent: frame }));
    }
    // Last to first, so the first child is visited first: aliases are counted in file order.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ issue }) => issue);
}

function start(node: unknown): number {
  const range = (node as Node | null | undefined)?.range;
  return Array.isArray(range) ? range[0] : 0;
}

function pathOf(frame: Frame): string {
  const keys: Array<string | number> = [];
  for (let at: Frame | null = frame; at !== null && at.key !== null; at = at.parent) keys.push(at.key);
  return toJsonPath(keys.reverse());
}

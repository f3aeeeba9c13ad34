import type { ZodType } from 'zod';
import { parseWith, toJsonPath, type Issue } from '../schemas';

/** The parts of a zod 4 schema's definition the walk reads. */
interface Definition {
  type: string;
  shape?: Record<string, ZodType>;
  element?: ZodType;
  innerType?: ZodType;
  options?: readonly ZodType[];
  entries?: Record<string, string>;
  valueType?: ZodType;
  getter?: () => ZodType;
  in?: ZodType;
}

const definitionOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/**
 * What the service sent, checked closed: bvs-mock's zod schema as it is (an unknown field, a missing one, a wrong
 * type) and, in the fields whose spec row lists only the values seen (`seenValues`, open in the schema and the
 * document: docs/fidelity.md row 89), a value not among those seen, as an `unseen_value` issue. What the closed
 * check refuses is what the real service sends beyond what bvs-mock knows: the proxy's drift.
 *
 * @example
 * closedIssues(EntityValidation, { ...validation, status: 'in_progress' }) // [{ path: '$.status', code: 'unseen_value', … }]
 */
export function closedIssues(schema: ZodType, body: unknown): Issue[] {
  const parsed = parseWith(schema, body);
  const issues: Issue[] = parsed.ok ? [] : [...parsed.issues];
  const unseen: Issue[] = [];
  walk(schema, body, [], unseen);
  const listed = new Set(issues.map((issue) => issue.path));
  return [...issues, ...unseen.filter((issue) => !listed.has(issue.path))];
}

function walk(schema: ZodType, value: unknown, path: PropertyKey[], out: Issue[]): void {
  const definition = definitionOf(schema);
  switch (definition.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
      if (value !== undefined && value !== null) walk(definition.innerType!, value, path, out);
      return;
    case 'lazy':
      walk(definition.getter!(), value, path, out);
      return;
    case 'pipe':
      walk(definition.in!, value, path, out);
      return;
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      for (const [key, field] of Object.entries(definition.shape ?? {}))
        if (key in value) walk(field, (value as Record<string, unknown>)[key], [...path, key], out);
      return;
    case 'array':
      if (Array.isArray(value)) value.forEach((item, index) => walk(definition.element!, item, [...path, index], out));
      return;
    case 'record':
      if (typeof value === 'object' && value !== null && definition.valueType !== undefined)
        for (const [key, item] of Object.entries(value)) walk(definition.valueType, item, [...path, key], out);
      return;
    case 'union': {
      const options = definition.options ?? [];
      const seen = seenList(options);
      if (seen !== undefined) {
        if (typeof value === 'string' && !seen.includes(value))
          out.push({ path: toJsonPath(path), code: 'unseen_value', message: `${JSON.stringify(value)} is not among the values seen: ${seen.join(', ')}` });
        return;
      }
      const fitting = options.find((option) => option.safeParse(value).success);
      if (fitting !== undefined) walk(fitting, value, path, out);
      return;
    }
    default:
      return;
  }
}

/** The values seen, when the union is a `seenValues` field (a closed list, or any non-empty string). */
function seenList(options: readonly ZodType[]): string[] | undefined {
  if (options.length !== 2) return undefined;
  const [listed, any] = options.map(definitionOf);
  if (listed!.type !== 'enum' || any!.type !== 'string') return undefined;
  return Object.values(listed!.entries ?? {});
}

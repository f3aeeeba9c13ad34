/** One step of a JSON path: a name (or `*`) at this level, or at any depth below (`..`), or an index. */
interface Step {
  deep: boolean;
  key: string | number | '*';
}

/** What a redacted value is written as. */
const REDACTED = '(redacted)';

/**
 * A JSON path as `--redact` takes it: `$.entity_validation.name`, `$..display_name`, `$.items[*].name`,
 * `$.runs[0].type`, `$['odd key']`. Throws an error naming the path and what is wrong with it.
 */
export function parseRedactPath(path: string): Step[] {
  const fail = (why: string): never => {
    throw new Error(`--redact ${path}: ${why}; write a JSON path like $.entity_validation.name or $..display_name`);
  };
  if (!path.startsWith('$')) fail('it does not start with $');
  const steps: Step[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const match = /^(\.\.?)([A-Za-z_][\w-]*|\*)/.exec(rest) ?? /^(\.\.)?\[(\d+|\*|'[^']*'|"[^"]*")\]/.exec(rest) ?? fail(`cannot read ${JSON.stringify(rest)}`);
    const deep = match[1] === '..';
    const raw = match[2]!;
    const key = raw === '*' ? '*' : /^\d+$/.test(raw) ? Number(raw) : raw.replace(/^['"]|['"]$/g, '');
    steps.push({ deep, key });
    rest = rest.slice(match[0].length);
  }
  if (steps.length === 0) fail('it names the whole document');
  return steps;
}

/** The value with every place the path names replaced by {@link REDACTED}; the value given is not changed. */
export function redact(value: unknown, steps: readonly Step[]): unknown {
  if (steps.length === 0) return value === null || typeof value !== 'object' ? REDACTED : redactAll(value);
  const [step, ...rest] = steps as [Step, ...Step[]];
  if (value === null || typeof value !== 'object') return value;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  const mapped = entries.map(([key, item]): [string | number, unknown] => {
    let next = item;
    if (step.key === '*' || step.key === key || (typeof step.key === 'number' && String(step.key) === String(key))) next = redact(next, rest);
    if (step.deep) next = redact(next, steps);
    return [key, next];
  });
  return Array.isArray(value) ? mapped.map(([, item]) => item) : Object.fromEntries(mapped);
}

/** A whole object or array redacted: its leaves masked, its shape kept. */
function redactAll(value: object): unknown {
  if (Array.isArray(value)) return value.map((item) => (item !== null && typeof item === 'object' ? redactAll(item) : REDACTED));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, item !== null && typeof item === 'object' ? redactAll(item) : REDACTED]));
}

/**
 * Where `actual` first differs from `expected`, two JSON texts that must be the same bytes: one JSON path and
 * both values there (cut short), so a failure does not print two texts of a hundred kilobytes. Null when they
 * are the same bytes.
 */
export function firstDifference(actual: string, expected: string): string | null {
  if (actual === expected) return null;
  const walk = (a: unknown, b: unknown, path: string): string | null => {
    if (JSON.stringify(a) === JSON.stringify(b)) return null;
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
      for (const key of keys) {
        const found = walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}${Array.isArray(a) ? `[${key}]` : `.${key}`}`);
        if (found !== null) return found;
      }
      return `${path}: key order differs`;
    }
    const show = (value: unknown) => JSON.stringify(value)?.slice(0, 300);
    return `${path}: ${show(a)} where the other has ${show(b)}`;
  };
  return walk(JSON.parse(actual), JSON.parse(expected), '$');
}

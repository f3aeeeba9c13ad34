/**
 * The names closest to a mistyped one, for a "did you mean" hint: those within a small edit distance
 * (about a third of the name's length, at least 2), and those that contain it or that it contains,
 * nearest first, at most `limit`.
 *
 * @example
 * closestNames('happy-partner', ['happy-partners', 'cl-formation']); // ['happy-partners']
 */
export function closestNames(wanted: string, names: Iterable<string>, limit = 3): string[] {
  const target = wanted.toLowerCase();
  const budget = Math.max(2, Math.floor(target.length / 3));
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of names) {
    const candidate = name.toLowerCase();
    const contains = target.length >= 3 && (candidate.includes(target) || target.includes(candidate));
    const distance = editDistance(target, candidate, budget + 1);
    if (distance <= budget || contains) scored.push({ name, distance: contains ? Math.min(distance, budget) : distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** Levenshtein distance, stopping early at `cap` (the answer is then `cap`). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return Math.min(previous[b.length]!, cap);
}

/** ` Did you mean "a" or "b"?`, or nothing when no name is close. */
export function didYouMean(wanted: string, names: Iterable<string>): string {
  const close = closestNames(wanted, names);
  if (close.length === 0) return '';
  const quoted = close.map((name) => `"${name}"`);
  return ` Did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`}?`;
}

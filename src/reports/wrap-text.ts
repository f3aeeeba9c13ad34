/**
 * Breaks one line of text into lines no wider than `width`, at spaces, and
 * inside a word only when the word alone is wider than a line (ids, URLs and
 * CJK-turned-`?` runs have no spaces, and must not overflow the page).
 * Always returns at least one line, so an empty value still takes its row.
 *
 * @param text one line, already WinAnsi-safe (see `toWinAnsi`)
 * @param measure the drawn width of a string, in points
 * @param width the widest a line may be, in points
 * @example
 * wrapText('Comercial Andes SpA', (s) => s.length * 5, 50) // ['Comercial', 'Andes SpA']
 */
export function wrapText(text: string, measure: (s: string) => number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    for (const char of word) {
      if (line !== '' && measure(line + char) > width) {
        lines.push(line);
        line = char;
      } else {
        line += char;
      }
    }
  }
  lines.push(line);
  return lines;
}

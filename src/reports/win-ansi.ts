/**
 * The code points of WinAnsi (Windows-1252) that pdf-lib can draw with a
 * standard font: printable ASCII, Latin-1 from U+00A0, and the 27 extra
 * characters that Windows-1252 puts at 0x80-0x9F. Checked against the
 * character set of pdf-lib's Helvetica in test/reports/win-ansi.test.ts.
 */
const WIN_ANSI_EXTRAS = [
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020,
  0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
];

const EXTRAS = new Set(WIN_ANSI_EXTRAS);

/** The character drawn in place of one WinAnsi cannot encode. */
const WIN_ANSI_REPLACEMENT = '?';

/** Whether a standard PDF font can encode the code point. */
export function isWinAnsi(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || EXTRAS.has(codePoint);
}

/**
 * Makes `text` drawable on one line with a standard font. pdf-lib throws on any
 * character outside WinAnsi, and report text comes from client input (names,
 * alert names) that may hold emoji or CJK, so a report must degrade, not fail.
 * Text is NFC-normalized first so a decomposed "a" + U+0301 becomes "á" instead
 * of "a?". Tabs and line breaks become spaces (callers split lines before);
 * every other character outside WinAnsi becomes one `?` per code point, so an
 * emoji written as a surrogate pair gives one `?`, not two.
 *
 * @example
 * toWinAnsi('Compañía 北京 🚀') // 'Compañía ?? ?'
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of String(text).normalize('NFC')) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (isWinAnsi(codePoint)) out += char;
    else if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) out += ' ';
    else out += WIN_ANSI_REPLACEMENT;
  }
  return out;
}

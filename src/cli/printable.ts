/**
 * Control characters a terminal acts on instead of showing: C0 (escape, bell, backspace, carriage return, newline,
 * tab), DEL and C1 (U+009B is a one-character escape sequence), the line and paragraph separators, and the
 * bidirectional overrides and isolates that make text read other than it is stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A line of text as the command line may print it: every character a terminal would act on is written as its
 * `\uXXXX` escape, so a value read from a user's file (a `type`, a key, a file name, a parser's message quoting the
 * file) can neither clear the screen, retitle the window, nor forge a line of output.
 *
 * @example
 * printable('data_source_run_batch.ready\u001b[2J') // 'data_source_run_batch.ready\\u001b[2J'
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

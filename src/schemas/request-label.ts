/**
 * Labels (docs/design.md, "Sessions"): a request or control call may carry `x-bvs-mock-label`, a name for people
 * (bvs-mock/testing sends the current test's name), which the journal, the delivery records of validations created
 * under it and the contract report show. A label never changes an answer: one bvs-mock cannot read is ignored, as
 * the real service ignores a header it does not know.
 */
export const LABEL_HEADER = 'x-bvs-mock-label';

/** The most characters a label keeps. */
export const MAX_LABEL_CHARS = 200;

/** The header's value for `label`: printable ASCII as it is, `%` and every other character percent-encoded (UTF-8). */
export function encodeLabel(label: string): string {
  const kept = [...label.replace(/\p{Cc}+/gu, ' ')].slice(0, MAX_LABEL_CHARS).join('');
  return kept.replace(/[^\x20-\x24\x26-\x7e]/gu, (char) => encodeURIComponent(char));
}

/**
 * The label a header value carries, or undefined when there is none or it is not one: percent-escapes decoded
 * (a value that does not decode is taken as it came), then at most {@link MAX_LABEL_CHARS} characters with no
 * control character and not blank.
 */
export function decodeLabel(value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value.length > MAX_LABEL_CHARS * 12) return undefined;
  let label = value;
  if (value.includes('%')) {
    try {
      label = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: kept as it came.
    }
  }
  if (label.length > MAX_LABEL_CHARS * 2 || [...label].length > MAX_LABEL_CHARS || /\p{Cc}/u.test(label) || label.trim() === '') return undefined;
  return label;
}

import type { core } from 'zod';

/**
 * The sentences bvs-mock writes for zod's own checks, one per issue code, in the house form
 * "must be …, got …" that the hand-written messages of the schemas use too ("must be a two-letter
 * upper-case country code"). A schema's own message always wins; these cover every check that has
 * none, so no zod wording ("Invalid option: expected one of …") reaches a user.
 *
 * @example
 * issueMessage({ code: 'invalid_type', expected: 'boolean', input: 'yes', path: [] , message: '' });
 * // 'must be a boolean, got a string ("yes")'
 */
export function issueMessage(issue: core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `required field is missing (expected ${kindOf(issue.expected)})`;
      return `must be ${kindOf(issue.expected)}, got ${describe(issue.input)}`;
    case 'invalid_value': {
      const allowed = issue.values.map((value) => JSON.stringify(value));
      if (issue.input === undefined) return `required field is missing (expected ${allowed.length === 1 ? allowed[0] : `one of ${allowed.join(', ')}`})`;
      return `${allowed.length === 1 ? `must be ${allowed[0]}` : `must be one of ${allowed.join(', ')}`}, got ${describe(issue.input)}`;
    }
    case 'too_small':
      return `must ${sizeRule(issue.origin, issue.exact ? 'exactly' : issue.inclusive === false ? 'more than' : 'at least', issue.minimum)}, got ${sizeOf(issue.origin, issue.input)}`;
    case 'too_big':
      return `must ${sizeRule(issue.origin, issue.exact ? 'exactly' : issue.inclusive === false ? 'less than' : 'at most', issue.maximum)}, got ${sizeOf(issue.origin, issue.input)}`;
    case 'invalid_format':
      return formatRule(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}, got ${describe(issue.input)}`;
    case 'unrecognized_keys':
      return `${issue.keys.map((key) => JSON.stringify(key)).join(', ')} ${issue.keys.length === 1 ? 'is not a known field' : 'are not known fields'} here`;
    case 'invalid_key':
      return `has a key that is not allowed here (${describe(issue.input)})`;
    case 'invalid_element':
      return `has an entry that is not allowed here (${describe(issue.input)})`;
    case 'invalid_union': {
      // A discriminated union whose discriminator matched no form: name the values it may take.
      const { options, discriminator } = issue as { options?: unknown[]; discriminator?: string };
      if (Array.isArray(options) && options.length > 0) {
        const given =
          discriminator !== undefined && typeof issue.input === 'object' && issue.input !== null
            ? (issue.input as Record<string, unknown>)[discriminator]
            : issue.input;
        return `must be one of ${options.map((option) => JSON.stringify(option)).join(', ')}, got ${describe(given)}`;
      }
      return `does not match any of the forms allowed here, got ${describe(issue.input)}`;
    }
    case 'custom':
      return 'is not valid here';
    default:
      return 'is not valid here';
  }
}

const SIZE_UNITS: Readonly<Record<string, string>> = { string: 'characters', array: 'items', set: 'items', map: 'entries', file: 'bytes' };

function sizeRule(origin: string, comparison: string, limit: number | bigint | Date): string {
  const unit = SIZE_UNITS[origin];
  const bound = limit instanceof Date ? limit.toISOString() : String(limit);
  if (unit !== undefined) return `have ${comparison} ${bound} ${bound === '1' ? unit.replace(/s$/, '') : unit}`;
  if (origin === 'date') return `be ${comparison === 'at least' || comparison === 'more than' ? 'on or after' : 'on or before'} ${bound}`;
  return `be ${comparison} ${bound}`;
}

function sizeOf(origin: string, input: unknown): string {
  if (typeof input === 'string' && origin === 'string') return `${input.length}`;
  if (Array.isArray(input)) return `${input.length}`;
  if (input instanceof Set || input instanceof Map) return `${input.size}`;
  return describe(input);
}

function formatRule(issue: core.$ZodRawIssue<core.$ZodIssueInvalidStringFormat>): string {
  const got = `, got ${describe(issue.input)}`;
  switch (issue.format) {
    case 'regex':
      return `must match the pattern ${issue.pattern ?? ''}${got}`;
    case 'starts_with':
      return `must start with ${JSON.stringify((issue as { prefix?: string }).prefix)}${got}`;
    case 'ends_with':
      return `must end with ${JSON.stringify((issue as { suffix?: string }).suffix)}${got}`;
    case 'includes':
      return `must contain ${JSON.stringify((issue as { includes?: string }).includes)}${got}`;
    case 'datetime':
      return `must be a date and time in ISO 8601 UTC, like 2026-01-15T10:00:00.000Z${got}`;
    case 'date':
      return `must be a date in ISO 8601, like 2026-01-15${got}`;
    case 'url':
      return `must be an absolute URL, like https://example.com/hooks${got}`;
    case 'email':
      return `must be an email address, like reviewer@example.com${got}`;
    default:
      return `must be a valid ${issue.format.replace(/_/g, ' ')}${got}`;
  }
}

/** "a string", "an array", "null": what a value of zod's expected type is called in a sentence. */
function kindOf(expected: string): string {
  if (expected === 'null' || expected === 'undefined' || expected === 'never') return expected;
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The most characters of a received string a message quotes. */
const MAX_QUOTED = 100;

/**
 * A schema's own message with what was given added, `must be an e-mail address, got a string ("nobody")`,
 * so every check says what it received, as zod's own checks do (issueMessage). A message that already
 * says it (`got …`, or the value itself, `"succeded" is not one of …`, `AB is not one`) is kept as it is,
 * and so is one about an object or an array, whose value a sentence cannot show.
 *
 * @example
 * withGiven('must not be empty', ''); // 'must not be empty, got a string ("")'
 */
export function withGiven(message: string, input: unknown): string {
  if (input === undefined || (typeof input === 'object' && input !== null) || typeof input === 'function') return message;
  if (/\bgot\b/.test(message)) return message;
  if (typeof input === 'string' && input !== '' && namesValue(message, input)) return message;
  return `${message}, got ${describe(input)}`;
}

function namesValue(message: string, value: string): boolean {
  if (message.includes(JSON.stringify(value))) return true;
  if (value.length < 2) return false; // a bare "a" is a word of any sentence
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${escaped}([^\\w]|$)`).test(message);
}

/**
 * What a received value is, with the value itself quoted as JSON up to {@link MAX_QUOTED} characters:
 * `a string ("yes")`, `a string of 250 characters starting "https://…"`, `null`, `an array`.
 */
function describe(input: unknown): string {
  if (input === null) return 'null';
  if (input === undefined) return 'nothing';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'string')
    return input.length <= MAX_QUOTED
      ? `a string (${JSON.stringify(input)})`
      : `a string of ${input.length} characters starting ${JSON.stringify(input.slice(0, MAX_QUOTED))}`;
  if (typeof input === 'number') return Number.isFinite(input) ? `the number ${input}` : String(input);
  if (typeof input === 'boolean') return `the boolean ${input}`;
  if (typeof input === 'object') return 'an object';
  return `a ${typeof input}`;
}

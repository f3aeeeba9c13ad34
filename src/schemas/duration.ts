import { z } from './zod';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(?:(\d+(?:\.\d+)?)(ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/**
 * Parses a duration as scenario files write them: `20s`, `1m30s`, `500ms`, `2h`,
 * or a plain number of seconds. Returns milliseconds, or undefined when the
 * text is not a duration.
 */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  const text = value.trim();
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Math.round(total);
}

/** A duration in a scenario file, parsed to milliseconds. */
export const Duration = z.union([z.string(), z.number()]).transform((value, context) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a duration; write it like 20s, 1m30s, 500ms or a number of seconds` });
    return z.NEVER;
  }
  return ms;
});

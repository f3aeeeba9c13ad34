/**
 * How reports print values. Formatting is written out rather than left to
 * `Intl`, so a report's bytes do not depend on the locale or ICU data of the
 * machine that renders it (reports must be byte-identical for the same input).
 */

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

/** `2026-01-15T10:00:20.000Z` as `2026-01-15 10:00:20 UTC`; null as `-`; anything else as given. */
export function formatTimestamp(value: string | null): string {
  if (value === null) return '-';
  const match = ISO_TIMESTAMP.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

/** The date part of a timestamp, for values that are dates in practice (a constitution date). */
export function formatDate(value: string): string {
  return ISO_TIMESTAMP.exec(value)?.[1] ?? value;
}

/** An integer or decimal with thousands separators: `10000000` as `10,000,000`, `12.5` as `12.5`. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole = '0', fraction] = Math.abs(value)
    .toFixed(2)
    .replace(/\.?0+$/, '')
    .split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A fraction from 0 to 1 as a percentage with at most two decimals: `0.3333` as `33.33%` (spec §2 participation). */
export function formatPercent(fraction: number): string {
  return `${formatNumber(Math.round(fraction * 10000) / 100)}%`;
}

/** A boolean as `yes` or `no`. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** A list joined with commas, or `none` when empty. */
export function listOrNone(values: string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

import { formatDate, formatNumber, formatPercent, formatTimestamp, listOrNone } from '../../src/reports/report-format';

describe('report formatting', () => {
  it.each([
    [10000000, '10,000,000'],
    [1000, '1,000'],
    [999, '999'],
    [0, '0'],
    [12.5, '12.5'],
    [-1234.567, '-1,234.57'],
  ])('writes %p as %p', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it.each([
    [1, '100%'],
    [0.5, '50%'],
    [1 / 3, '33.33%'],
    [0, '0%'],
  ])('writes the fraction %p as %p', (fraction, expected) => {
    expect(formatPercent(fraction)).toBe(expected);
  });

  it('writes timestamps in UTC without milliseconds, null as -, and anything else as given', () => {
    expect(formatTimestamp('2026-01-15T10:00:20.000Z')).toBe('2026-01-15 10:00:20 UTC');
    expect(formatTimestamp(null)).toBe('-');
    expect(formatTimestamp('yesterday')).toBe('yesterday');
    expect(formatDate('2019-03-04T00:00:00.000Z')).toBe('2019-03-04');
  });

  it('writes an empty list as none', () => {
    expect(listOrNone([])).toBe('none');
    expect(listOrNone(['MR01', 'MR02'])).toBe('MR01, MR02');
  });
});

import { decodeLabel, encodeLabel, MAX_LABEL_CHARS } from '../../src/schemas/request-label';

// The label header (x-bvs-mock-label): what the library sends and what bvs-mock keeps; a label it cannot read is ignored.

test('a test name with any character goes through the header and back unchanged, % included', () => {
  for (const name of ['creates a validation', 'Ñandú › 50% off: "quotes" & <tags>', '試験 🚀']) {
    const value = encodeLabel(name);
    expect(value).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeLabel(value)).toBe(name);
  }
});

test('the library cuts a label at 200 characters and turns control characters into spaces', () => {
  expect(encodeLabel('a\nb\tc')).toBe('a b c');
  expect(decodeLabel(encodeLabel('é'.repeat(300)))).toBe('é'.repeat(MAX_LABEL_CHARS));
});

test('bvs-mock ignores a label that is too long, blank, or holds a control character, and keeps one that does not decode as it came', () => {
  expect(decodeLabel('x'.repeat(MAX_LABEL_CHARS + 1))).toBeUndefined();
  expect(decodeLabel('   ')).toBeUndefined();
  expect(decodeLabel('a%0Ab')).toBeUndefined();
  expect(decodeLabel('')).toBeUndefined();
  expect(decodeLabel('100% sure')).toBe('100% sure');
});

import { formatRut, isValidRut, rutCheckDigit } from '../../src/engine/scenarios';

test.each([
  [76086428, '5'],
  [12345678, '5'],
  [77123456, '9'],
  [76354771, 'K'],
  [11111111, '1'],
  [6, 'K'],
  [17890123, '0'],
  [60803000, 'K'], // the SII's own RUT
])('computes the check digit of RUT %i as %s', (body, digit) => {
  expect(rutCheckDigit(body)).toBe(digit);
  expect(formatRut(body)).toBe(`${body}-${digit}`);
});

test('accepts RUTs with or without dots and a check digit K in either case', () => {
  expect(['76086428-5', '76.086.428-5', '76354771-k', '76.354.771-K'].map(isValidRut)).toEqual([true, true, true, true]);
});

test('refuses RUTs with a wrong check digit or another shape', () => {
  expect(['76086428-4', '760864285', '76-086428-5', '0-0', 'abc-5', ''].map(isValidRut)).toEqual([false, false, false, false, false, false]);
});

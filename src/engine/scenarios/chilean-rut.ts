/**
 * Chilean RUTs (Rol Único Tributario), the TINs of Chilean scenarios. The service does not check
 * TIN formats (docs/fidelity.md row 10), but the mock's own data should look like the real thing,
 * so client code that does verify check digits works against it.
 */

/**
 * The check digit of a RUT body (the digits before the dash): modulo 11 with weights 2 to 7
 * from the right; 11 becomes `0` and 10 becomes `K`.
 *
 * @example rutCheckDigit(76086428) // '5'
 */
export function rutCheckDigit(body: number): string {
  let sum = 0;
  let weight = 2;
  for (let rest = Math.trunc(body); rest > 0; rest = Math.trunc(rest / 10)) {
    sum += (rest % 10) * weight;
    weight = weight === 7 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

/**
 * Writes a RUT as scenario files and the API do, without dots: `76086428-5`.
 *
 * @example formatRut(12345678) // '12345678-5'
 */
export function formatRut(body: number): string {
  return `${Math.trunc(body)}-${rutCheckDigit(body)}`;
}

/**
 * Whether `text` is a RUT with a correct check digit. Dots are accepted (`76.086.428-5`), as
 * clients often send them; the check digit `K` may be lower case.
 */
export function isValidRut(text: string): boolean {
  const match = /^(\d{1,3}(?:\.?\d{3})*)-([\dkK])$/.exec(text.trim());
  if (!match) return false;
  const body = Number(match[1]!.replaceAll('.', ''));
  return body > 0 && rutCheckDigit(body) === match[2]!.toUpperCase();
}

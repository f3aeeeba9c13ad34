import type { Faker } from '@faker-js/faker';
import { formatRut } from './chilean-rut';

/** What {@link generateTin} needs to know about the entity. */
export interface GeneratedTinOptions {
  /** Two-letter upper-case country code. */
  country: string;
  category: 'business' | 'person';
}

/**
 * A TIN in the shape the country uses, for partners of generated trees. Chilean RUTs get a
 * correct check digit (companies in the 76–77 million range the SII assigns them, people below);
 * elsewhere the shape is right but check digits are not computed, as the mock does not verify
 * them (docs/fidelity.md row 10).
 */
export function generateTin(faker: Faker, { country, category }: GeneratedTinOptions): string {
  const business = category === 'business';
  const digits = (length: number) => faker.string.numeric({ length, allowLeadingZeros: false });
  switch (country) {
    case 'CL':
      return formatRut(business ? faker.number.int({ min: 76_000_000, max: 77_999_999 }) : faker.number.int({ min: 6_000_000, max: 24_999_999 }));
    case 'AR':
      return `${business ? '30' : faker.helpers.arrayElement(['20', '27'])}-${digits(8)}-${digits(1)}`;
    case 'CO':
      return business ? `9${digits(8)}-${digits(1)}` : digits(10);
    case 'PE':
      return `${business ? '20' : '10'}${digits(9)}`;
    case 'MX': {
      const letters = faker.string.alpha({ length: business ? 3 : 4, casing: 'upper' });
      return `${letters}${digits(6)}${faker.string.alphanumeric({ length: 3, casing: 'upper' })}`;
    }
    case 'US':
      return business ? `${digits(2)}-${digits(7)}` : `9${digits(2)}-7${digits(1)}-${digits(4)}`;
    default:
      return digits(9);
  }
}

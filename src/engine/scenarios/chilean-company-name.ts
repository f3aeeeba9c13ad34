import type { Faker } from '@faker-js/faker';

/** Legal forms of Chilean companies, as the suffix of the name and as the registry names them. */
const LEGAL_FORMS = [
  { suffix: 'SpA', companyType: 'Sociedad por Acciones', weight: 5 },
  { suffix: 'Ltda', companyType: 'Sociedad de Responsabilidad Limitada', weight: 3 },
  { suffix: 'S.A.', companyType: 'Sociedad Anónima', weight: 1 },
] as const;

/** How Chilean company names usually begin: the line of business. */
const TRADES = ['Comercial', 'Inversiones', 'Constructora', 'Servicios', 'Transportes', 'Agrícola', 'Distribuidora', 'Inmobiliaria', 'Importadora', 'Sociedad'];

/** Places and landmarks Chilean companies are often named after. */
const PLACES = [
  'Andes',
  'Pacífico',
  'Los Lagos',
  'Maipo',
  'Biobío',
  'Atacama',
  'Austral',
  'Cordillera',
  'Aconcagua',
  'Elqui',
  'Llanquihue',
  'Patagonia',
  'Araucanía',
  'Tamarugal',
  'Limarí',
  'Valle Central',
  'Los Ríos',
  'Quillota',
  'Chiloé',
  'Cachapoal',
];

/** A Chilean company name and its legal form. */
export interface ChileanCompanyName {
  /** As the registry writes it: `Comercial Andes SpA`, `Inversiones Rojas Ltda`. */
  name: string;
  /** The legal form in words, for the formation's `company_type`: `Sociedad por Acciones`. */
  companyType: string;
}

/**
 * A realistic Chilean company name: a trade, a place or a family name, and the legal form
 * (`Comercial Andes SpA`, `Inversiones Fuentes Ltda`, `Rojas y Cía. Ltda`).
 */
export function chileanCompanyName(faker: Faker): ChileanCompanyName {
  const form = faker.helpers.weightedArrayElement(LEGAL_FORMS.map((value) => ({ value, weight: value.weight })));
  const family = faker.person.lastName().split(' ')[0]!;
  const style = faker.number.int({ min: 0, max: 5 });
  const core =
    style === 0 && form.suffix === 'Ltda'
      ? `${family} y Cía.`
      : `${faker.helpers.arrayElement(TRADES)} ${style <= 2 ? faker.helpers.arrayElement(PLACES) : family}`;
  return { name: `${core} ${form.suffix}`, companyType: form.companyType };
}

import type { Faker } from '@faker-js/faker';
import type { ScenarioFormation, z } from '../../schemas';

/** A formation as a scenario file writes it (before defaults). */
export type ScenarioFormationInput = z.input<typeof ScenarioFormation>;

/** Activities as the SII's economic activity list words them. */
const ACTIVITIES = [
  'Venta al por mayor no especializada',
  'Actividades de consultoría de gestión',
  'Construcción de edificios para uso residencial',
  'Transporte de carga por carretera',
  'Cultivo de uva destinada a la producción de vino',
  'Actividades de programación informática',
  'Venta al por menor en comercios no especializados',
  'Actividades inmobiliarias realizadas con bienes propios o arrendados',
];

/** Banking and legal powers a manager's faculties are detected for. */
const FACULTIES = [
  { key: 'open_bank_accounts', code: 'F01' },
  { key: 'sign_checks', code: 'F02' },
  { key: 'take_loans', code: 'F03' },
  { key: 'sell_real_estate', code: 'F04' },
  { key: 'represent_in_court', code: 'F05' },
];

/** Options of {@link generateFormation}. */
export interface GenerateFormationOptions {
  /** The legal form in words (`Sociedad por Acciones`). */
  companyType: string;
  /** The company's partners; each becomes a stakeholder (schema rule: stakeholders are partners). */
  partners: ReadonlyArray<{ tin: string; category: 'business' | 'person' }>;
}

/**
 * The societary information of a generated Chilean company (spec §2 Formation): its partners
 * hold all of its equity, the first person among them manages it, and people with at least 10 %
 * are its ultimate beneficial owners (the threshold of Chile's UAF).
 */
export function generateFormation(faker: Faker, { companyType, partners }: GenerateFormationOptions): ScenarioFormationInput {
  const year = faker.number.int({ min: 2012, max: 2024 });
  const month = faker.number.int({ min: 1, max: 12 });
  const day = faker.number.int({ min: 1, max: 28 });
  const totalShares = companyType === 'Sociedad de Responsabilidad Limitada' ? 0 : faker.helpers.arrayElement([1_000, 10_000, 100_000]);
  const totalAmount = faker.number.int({ min: 10, max: 1_000 }) * 100_000;
  const percents = splitHundred(faker, partners.length);
  const manager = partners.findIndex((partner) => partner.category === 'person');

  return {
    company_type: companyType,
    fantasy_name: faker.datatype.boolean({ probability: 0.3 }) ? faker.person.lastName().split(' ')[0]! : null,
    constitution_date: `${year}-${pad(month)}-${pad(day)}`,
    activity_description: faker.helpers.arrayElement(ACTIVITIES),
    administration: {
      administration_type: companyType === 'Sociedad Anónima' ? 'Directorio' : 'Administración a cargo de un gerente',
      simple_signature: faker.datatype.boolean({ probability: 0.6 }),
    },
    equity: { total_amount: totalAmount, total_shares: totalShares, currency: 'CLP', shares_type: 'ordinary' },
    stakeholders: partners.map((partner, index) => {
      const percent = percents[index]!;
      const manages = index === manager;
      return {
        tin: partner.tin,
        roles: manages ? ['shareholder', 'general_manager'] : ['shareholder'],
        ubo: partner.category === 'person' && percent >= 10,
        participation: percent / 100,
        shares: Math.round((totalShares * percent) / 100),
        amount: Math.round((totalAmount * percent) / 100),
        faculties: manages ? FACULTIES.map((faculty) => ({ ...faculty, present: faker.datatype.boolean({ probability: 0.7 }) })) : [],
      };
    }),
    documents: [
      {
        name: 'constitucion.pdf',
        label: 'Estatuto de constitución',
        source: 'constitution',
        cve: faker.string.alphanumeric({ length: 12, casing: 'upper' }),
      },
    ],
  };
}

/** Whole percentages, each at least 1, adding up to exactly 100 (participations must sum to 1). */
function splitHundred(faker: Faker, count: number): number[] {
  if (count === 0) return [];
  const weights = Array.from({ length: count }, () => faker.number.int({ min: 1, max: 10 }));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const percents = weights.map((weight) => Math.max(1, Math.floor((weight * 100) / total)));
  percents[0]! += 100 - percents.reduce((sum, percent) => sum + percent, 0);
  return percents;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

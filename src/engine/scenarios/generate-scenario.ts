import type { Faker } from '@faker-js/faker';
import { CountryCode, Scenario, Tin, formatIssues, parseWith, type ScenarioInput, type ScenarioPartner, type z } from '../../schemas';
import { chileanCompanyName } from './chilean-company-name';
import { generateFormation } from './generate-formation';
import { generateTin } from './generated-tin';
import { seedFromText } from './seed-from-text';
import { seededFaker } from './seeded-faker';
import { tinKey } from './scenario-tins';

export type PartnerInput = z.input<typeof ScenarioPartner>;
type RunInput = PartnerInput['runs'][number];
type AlertInput = NonNullable<PartnerInput['alerts']>[number];
type Category = 'business' | 'person';

/** Options of {@link generateScenario}. */
export interface GenerateScenarioOptions {
  /** The TIN of the create call; it seeds everything, so it always plays the same tree. */
  tin: string;
  /** The country of the create call, two upper-case letters (`CL`). */
  country: string;
}

/** How many partners a generated business has: one or two most often, sometimes none or three. */
const PARTNER_COUNTS = [
  { value: 0, weight: 2 },
  { value: 1, weight: 3 },
  { value: 2, weight: 3 },
  { value: 3, weight: 2 },
];

/** Alerts a run of this source can raise, by source name (the part of the run type after the slash). */
export const ALERTS: Readonly<Record<string, readonly string[]>> = {
  sii: ['Tax debt', 'Irregular invoicing'],
  tax: ['Tax filing overdue', 'Tax debt'],
  pep: ['PEP match'],
  sanctions: ['Sanctions list match', 'Adverse media'],
  registry: ['Company recently incorporated', 'Registry inconsistency'],
  bankruptcy_bulletin: ['Bankruptcy record'],
};

/**
 * The tree played by a TIN that no scenario names (docs/design.md "Scenarios"): realistic for the
 * country, seeded from the TIN, so the same TIN gives a byte-identical scenario on every run and
 * machine while different TINs differ. Chilean companies run `cl/sii`, `cl/registry`, `cl/pep`
 * and sometimes `cl/bankruptcy_bulletin`; other countries `<cc>/registry`, `<cc>/sanctions`,
 * `<cc>/tax`. A business has 0 to 3 partners; runs mostly succeed in 5 to 60 s, some after a
 * `temporary_error`; none fails definitively, so every generated tree completes. A Chilean RUT
 * below 50 million is a person's (the SII's numbering) and is generated as a person without partners.
 *
 * The tree is built in the input form (durations as `20s`) and parsed by the {@link Scenario}
 * schema, so a generated tree can never be one the schema would refuse.
 *
 * @example generateScenario({ tin: '76543210-3', country: 'CL' }).name // 'generated-76543210-3'
 * @throws Error when `tin` or `country` is not valid for a create call.
 */
export function generateScenario(options: GenerateScenarioOptions): Scenario {
  const parsed = parseWith(Scenario, generateScenarioInput(options));
  // Unreachable unless this generator has a bug; say so plainly rather than play a broken tree.
  if (!parsed.ok)
    throw new Error(`bvs-mock: the scenario generated for TIN ${options.tin} is invalid (a bug in generate-scenario.ts):\n${formatIssues(parsed.issues)}`);
  return parsed.value;
}

/**
 * The generated tree as a scenario file would write it (durations as `20s`), before the schema
 * applies defaults: what {@link generateScenario} parses, and what a user can save as a file to
 * edit a generated tree into a scenario of their own.
 *
 * @throws Error when `tin` or `country` is not valid for a create call.
 */
export function generateScenarioInput({ tin, country }: GenerateScenarioOptions): ScenarioInput {
  const checked = [parseWith(Tin, tin), parseWith(CountryCode, country)];
  for (const result of checked) {
    if (!result.ok)
      throw new Error(
        `bvs-mock: cannot generate a scenario for TIN ${JSON.stringify(tin)} and country ${JSON.stringify(country)}: ${formatIssues(result.issues)}`,
      );
  }

  const faker = seededFaker({ tin, country });
  const cc = country.toLowerCase();
  const used = new Set([tinKey(tin)]);
  const category = mainCategory(tin, country);
  const identity = category === 'person' ? personIdentity(faker) : businessIdentity(faker, country);
  const runTypes = category === 'person' ? personRunTypes(cc) : mainBusinessRunTypes(faker, cc);

  const partners: PartnerInput[] = [];
  const partnerCount = category === 'person' ? 0 : faker.helpers.weightedArrayElement(PARTNER_COUNTS);
  for (let index = 0; index < partnerCount; index++) partners.push(generatePartner(faker, { country, used }));

  const input: ScenarioInput = {
    name: `generated-${slug(tin)}`,
    description: `Generated from TIN ${tin} (${country}): ${describeTree(`${identity.name} ${identity.surname}`.trim(), partners.length)}. Every run completes; none fails definitively.`,
    tins: [tin],
    entity: {
      tin,
      country,
      category,
      name: identity.name,
      surname: identity.surname,
      runs: runTypes.map((type) => generateRun(faker, type)),
      alerts: generateAlerts(faker, runTypes, 0.35),
      ...(partners.length > 0 ? { partners } : {}),
    },
  };
  if (identity.companyType !== undefined && partners.length > 0 && faker.datatype.boolean({ probability: 0.5 })) {
    input.entity.formation = generateFormation(faker, { companyType: identity.companyType, partners });
  }
  return input;
}

function generatePartner(faker: Faker, { country, used }: { country: string; used: Set<string> }): PartnerInput {
  const cc = country.toLowerCase();
  const category: Category = faker.datatype.boolean({ probability: 0.65 }) ? 'person' : 'business';
  let tin = generateTin(faker, { country, category });
  while (used.has(tinKey(tin))) tin = generateTin(faker, { country, category });
  used.add(tinKey(tin));

  const identity = category === 'person' ? personIdentity(faker) : businessIdentity(faker, country);
  const base =
    category === 'person'
      ? [`${cc}/${cc === 'cl' ? 'pep' : 'sanctions'}`, `${cc}/${cc === 'cl' ? 'sii' : 'tax'}`]
      : [`${cc}/registry`, `${cc}/${cc === 'cl' ? 'sii' : 'sanctions'}`];
  const runTypes = base.slice(0, faker.number.int({ min: 1, max: 2 }));
  return {
    tin,
    category,
    name: identity.name,
    surname: identity.surname,
    runs: runTypes.map((type) => generateRun(faker, type)),
    alerts: generateAlerts(faker, runTypes, 0.2),
  };
}

/** Mostly a success in 5–60 s; sometimes a temporary error first (retried at once, spec §3). */
function generateRun(faker: Faker, type: string): RunInput {
  const seconds = () => `${faker.number.int({ min: 5, max: 60 })}s`;
  if (faker.datatype.boolean({ probability: 0.15 })) return { type, outcomes: [{ temporary_error: seconds() }, { succeeded: seconds() }] };
  return { type, outcomes: [{ succeeded: seconds() }] };
}

function generateAlerts(faker: Faker, runTypes: readonly string[], probability: number): AlertInput[] {
  if (!faker.datatype.boolean({ probability })) return [];
  const raisedBy = faker.helpers.arrayElement(runTypes);
  const names = ALERTS[raisedBy.slice(3)] ?? ['Manual review required'];
  return [{ name: faker.helpers.arrayElement(names), severity: faker.helpers.arrayElement(['medium', 'high'] as const), raised_by: raisedBy }];
}

function mainCategory(tin: string, country: string): Category {
  if (country !== 'CL') return 'business';
  const body = /^(\d[\d.]*)-[\dkK]$/.exec(tin.trim())?.[1];
  return body !== undefined && Number(body.replaceAll('.', '')) < 50_000_000 ? 'person' : 'business';
}

function mainBusinessRunTypes(faker: Faker, cc: string): string[] {
  if (cc !== 'cl') return [`${cc}/registry`, `${cc}/sanctions`, `${cc}/tax`];
  const types = ['cl/sii', 'cl/registry', 'cl/pep'];
  if (faker.datatype.boolean({ probability: 0.3 })) types.push('cl/bankruptcy_bulletin');
  return types;
}

function personRunTypes(cc: string): string[] {
  return cc === 'cl' ? ['cl/sii', 'cl/pep'] : [`${cc}/sanctions`, `${cc}/tax`];
}

export interface Identity {
  name: string;
  surname: string;
  /** The legal form in words, for a Chilean company's formation. */
  companyType?: string;
}

export function personIdentity(faker: Faker): Identity {
  return { name: faker.person.firstName(), surname: faker.person.lastName() };
}

export function businessIdentity(faker: Faker, country: string): Identity {
  if (country === 'CL') return { ...chileanCompanyName(faker), surname: '' };
  return { name: faker.company.name(), surname: '' };
}

function describeTree(name: string, partners: number): string {
  return `${name} with ${partners === 0 ? 'no partners' : partners === 1 ? 'one partner' : `${partners} partners`}`;
}

/** A scenario name is kebab-case (src/schemas/scenario.ts); a TIN with nothing usable falls back to its hash. */
export function slug(tin: string): string {
  const text = tin
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (text !== '') return text;
  return `tin-${seedFromText(tin)[0]!.toString(16).padStart(8, '0')}`;
}

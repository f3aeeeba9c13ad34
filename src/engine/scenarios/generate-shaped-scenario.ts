import type { Faker } from '@faker-js/faker';
import { GeneratedScenarioSource, Scenario, parseWith, type Issue, type ParseResult, type ScenarioInput } from '../../schemas';
import { ALERTS, businessIdentity, personIdentity, slug, type PartnerInput } from './generate-scenario';
import { generateFormation } from './generate-formation';
import { generateTin } from './generated-tin';
import { parseScenarioParameters, type ScenarioParameters, type Target } from './scenario-parameters';
import { tinKey } from './scenario-tins';
import { seededFaker } from './seeded-faker';

type RunInput = PartnerInput['runs'][number];
type EntityInput = ScenarioInput['entity'] | PartnerInput;

/** Options of {@link generateShapedScenario}. */
export interface GenerateShapedScenarioOptions {
  /** The main entity's TIN (the create call's); it seeds the tree unless the parameters give a `seed`. */
  tin: string;
  /** The main entity's country, two upper-case letters. */
  country: string;
  /** The parameter text, as after `generated?`: `partners=5&fail=partner-3:definitive`. */
  parameters: string;
  /** Where the parameters were given, the root of the issues' paths: `$headers["x-mock-scenario"]`, `$.generated`. */
  at: string;
  /** The scenario's name; default `generated-<the TIN in kebab-case>`. */
  name?: string;
  /** Its description; default: what it was generated from. */
  description?: string;
}

/**
 * The tree a `generated?…` shape asks for (docs/scenarios.md "Parameters at create time"), checked as a
 * scenario file is: the parameters first (each problem at its path below `at`), then the document built
 * from them by the {@link Scenario} schema. A company with `partners` direct partners (each a company with
 * `nested` partners of its own when `nested` is given); every run succeeds in 5 to 60 s unless `fail` names
 * its entity; alerts only as `alerts` asks; a formation only with `formation=cl`.
 *
 * Names, TINs and durations are drawn from a faker seeded with `seed` (default the TIN) in an order that
 * depends only on the seed, the country, `partners` and `nested`: adding `fail`, `alerts` or a formation
 * to a tree changes only what they name.
 */
export function generateShapedScenario(options: GenerateShapedScenarioOptions): ParseResult<Scenario> {
  const read = parseScenarioParameters(options.parameters, options.at);
  if (!read.ok) return read;
  const parameters = read.value;
  if (parameters.formation === 'cl' && options.country !== 'CL') {
    const message = `formation=cl scripts a company of Chile's registry (spec §6 rule 2), so the country must be CL, not ${options.country}; leave formation out for this country`;
    return { ok: false, issues: [{ path: `${options.at}.formation`, code: 'invalid_parameter', message }] };
  }
  const input = shapedScenarioInput(options, parameters);
  const parsed = parseWith(Scenario, input);
  if (parsed.ok) return parsed;
  const issues = parsed.issues.map((issue): Issue => ({ ...issue, message: `the generated scenario: ${issue.message}` }));
  return { ok: false, issues };
}

/**
 * A scenario written as a generated shape (`{ name, tin, country, generated: 'partners=5&…' }`, see
 * {@link GeneratedScenarioSource}): its fields checked, then the tree generated, problems of the
 * parameters at `$.generated.…`.
 */
export function scenarioFromGeneratedSource(value: unknown): ParseResult<Scenario> {
  const source = parseWith(GeneratedScenarioSource, value);
  if (!source.ok) return source;
  const { name, description, tin, country, generated } = source.value;
  return generateShapedScenario({ tin, country, parameters: generated, at: '$.generated', name, ...(description === undefined ? {} : { description }) });
}

function shapedScenarioInput(options: GenerateShapedScenarioOptions, parameters: ScenarioParameters): ScenarioInput {
  const { tin, country } = options;
  const faker = seededFaker({ tin: parameters.seed ?? tin, country });
  const cc = country.toLowerCase();
  const used = new Set([tinKey(tin)]);
  const identity = businessIdentity(faker, country);
  const mainTypes = cc === 'cl' ? ['cl/sii', 'cl/registry', 'cl/pep'] : [`${cc}/registry`, `${cc}/sanctions`, `${cc}/tax`];
  const entity: ScenarioInput['entity'] = {
    tin,
    country,
    category: 'business',
    name: identity.name,
    surname: identity.surname,
    runs: mainTypes.map((type) => plainRun(faker, type)),
  };
  const partners: PartnerInput[] = [];
  for (let index = 0; index < parameters.partners; index++) {
    partners.push(shapedPartner(faker, { country, used, nested: parameters.nested }));
  }
  if (partners.length > 0) entity.partners = partners;

  for (const { target, how } of parameters.fail) {
    const runs = entityAt(entity, target).runs;
    const last = runs[runs.length - 1]!;
    const after = Object.values(last.outcomes[0]!)[0] as string;
    if (how === 'definitive') last.outcomes = [{ definitive_error: after }];
    else if (how === 'temporary') last.outcomes = [{ temporary_error: after }, { succeeded: after }];
    else last.outcomes = [{ missing_input_data: after }];
  }
  for (const { target, severity } of parameters.alerts) {
    const found = entityAt(entity, target);
    const raisedBy = found.runs[0]!.type;
    const names = ALERTS[raisedBy.slice(raisedBy.indexOf('/') + 1)] ?? ['Manual review required'];
    const alerts = (found.alerts ??= []);
    alerts.push({ name: names[alerts.length % names.length]!, severity, raised_by: raisedBy });
  }
  // Drawn last, so a formation changes nothing else of the tree.
  if (parameters.formation === 'cl') entity.formation = generateFormation(faker, { companyType: identity.companyType ?? 'Sociedad por Acciones', partners });

  const scenario: ScenarioInput = {
    name: options.name ?? `generated-${slug(tin)}`,
    description:
      options.description ??
      `Generated from TIN ${tin} (${country}) with ${options.parameters || 'no parameters'} (docs/scenarios.md "Parameters at create time").`,
    tins: [tin],
    entity,
  };
  if (parameters.informationRequest !== 'none') scenario.information_request = informationRequest(parameters.informationRequest === 'evaluated');
  return scenario;
}

function shapedPartner(faker: Faker, { country, used, nested }: { country: string; used: Set<string>; nested: number }): PartnerInput {
  const cc = country.toLowerCase();
  const category = nested > 0 || faker.datatype.boolean({ probability: 0.35 }) ? 'business' : 'person';
  let tin = generateTin(faker, { country, category });
  while (used.has(tinKey(tin))) tin = generateTin(faker, { country, category });
  used.add(tinKey(tin));
  const identity = category === 'person' ? personIdentity(faker) : businessIdentity(faker, country);
  const types =
    category === 'person'
      ? [`${cc}/${cc === 'cl' ? 'pep' : 'sanctions'}`, `${cc}/${cc === 'cl' ? 'sii' : 'tax'}`]
      : [`${cc}/registry`, `${cc}/${cc === 'cl' ? 'sii' : 'sanctions'}`];
  const partner: PartnerInput = { tin, category, name: identity.name, surname: identity.surname, runs: types.map((type) => plainRun(faker, type)) };
  if (nested > 0) partner.partners = Array.from({ length: nested }, () => shapedPartner(faker, { country, used, nested: 0 }));
  return partner;
}

/** A run that succeeds in 5 to 60 s. */
function plainRun(faker: Faker, type: string): RunInput {
  return { type, outcomes: [{ succeeded: `${faker.number.int({ min: 5, max: 60 })}s` }] };
}

/** The entity a target names; the parameters were checked against the counts, so it exists. */
function entityAt(entity: EntityInput, target: Target): EntityInput {
  return target.place.reduce<EntityInput>((found, place) => found.partners![place - 1]!, entity);
}

function informationRequest(evaluated: boolean): NonNullable<ScenarioInput['information_request']> {
  const items = [
    { name: 'Certificate of good standing', kind: 'document' as const, extract_after: '8s', extracted_data: { status: 'valid' } },
    { name: 'Financial statements', kind: 'document' as const, extract_after: '12s', extracted_data: { net_income: 96_500_000 } },
  ];
  if (!evaluated) return { always: true, items };
  return {
    always: true,
    items,
    steps: [
      { after: '20s', submit: 'all' },
      { after: '30s', analyze: { information_sheet: { risk_summary: 'No relevant findings' } } },
      { after: '15s', assign: { reviewer_email: 'reviewer@example.com', role: 'responsible' } },
      { after: '10s', evaluate: { comment: 'Documents complete and consistent; approved.' } },
    ],
  };
}

import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { seedFromText } from './seed-from-text';

type FakerModule = typeof import('@faker-js/faker');

/**
 * faker is loaded with the first generated tree, not at start: loading it takes
 * a fifth of a second, and a server playing only scripted scenarios never needs it.
 */
function faker(): FakerModule {
  // node's module cache loads it once.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@faker-js/faker') as FakerModule;
}

/** Spanish-speaking Latin America: names and companies read as Spanish there. */
const SPANISH_LATIN_AMERICA = new Set(['AR', 'BO', 'CL', 'CO', 'CR', 'CU', 'DO', 'EC', 'GT', 'HN', 'NI', 'PA', 'PE', 'PR', 'PY', 'SV', 'UY', 'VE']);

/**
 * The faker locales for a country, most specific first; `en` and `base` fill what a locale lacks
 * (faker throws on missing data rather than falling back by itself).
 */
function localesFor(country: string): LocaleDefinition[] {
  const { base, en, es, es_MX, pt_BR } = faker();
  if (country === 'MX') return [es_MX, es, en, base];
  if (country === 'BR') return [pt_BR, en, base];
  if (SPANISH_LATIN_AMERICA.has(country)) return [es, en, base];
  return [en, base];
}

/**
 * A faker of its own for one generated tree, seeded from the TIN alone. Never the global `faker`:
 * another caller's draws would shift ours, and the same TIN must always play the same tree
 * (CONTRIBUTING.md rule 4, docs/design.md "One simulated clock").
 */
export function seededFaker({ tin, country }: { tin: string; country: string }): Faker {
  const seeded = new (faker().Faker)({ locale: localesFor(country) });
  seeded.seed(seedFromText(tin));
  return seeded;
}

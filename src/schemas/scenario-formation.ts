import { Duration } from './duration';
import { StakeholderRole } from './formation';
import { Tin } from './primitives';
import { z } from './zod';

/**
 * The societary information a scenario scripts for a Chilean registry company
 * (spec §2 Formation, §6 rule 2). Stakeholders name partners of the same entity
 * by TIN; bvs-mock fills in their ids and names.
 */
export const ScenarioFormation = z.strictObject({
  company_type: z.string().min(1),
  registry: z.string().min(1).default('Registro de Empresas y Sociedades'),
  fantasy_name: z.string().nullable().default(null),
  constitution_date: z.iso.date({ message: 'must be a date like 2019-03-04' }),
  duration: z.string().default('indefinite'),
  activity_description: z.string().min(1),
  requires_manual_review: z.boolean().default(false),
  manual_review_codes: z.array(z.string()).default([]),
  administration: z.strictObject({ administration_type: z.string(), simple_signature: z.boolean() }),
  equity: z.strictObject({
    total_amount: z.number().nonnegative(),
    total_shares: z.number().int().nonnegative(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter currency code, like CLP' })
      .default('CLP'),
    shares_type: z.string().default('ordinary'),
  }),
  stakeholders: z
    .array(
      z.strictObject({
        tin: Tin,
        roles: z.array(StakeholderRole).min(1),
        ubo: z.boolean().default(false),
        participation: z.number().min(0).max(1).default(0),
        shares: z.number().int().nonnegative().default(0),
        amount: z.number().nonnegative().default(0),
        faculties: z.array(z.strictObject({ key: z.string(), code: z.string(), present: z.boolean() })).default([]),
      }),
    )
    .default([]),
  documents: z.array(z.strictObject({ name: z.string(), label: z.string(), source: z.string().default('constitution'), cve: z.string() })).default([]),
  /** The run whose success downloads the constitution; default: the run that discovers partners. */
  source_run: z.string().optional(),
  /** Time from that run's success to the legal report being generated and `formation.ready` firing. */
  ready_after: Duration.default(10_000),
});

export type ScenarioFormation = z.infer<typeof ScenarioFormation>;

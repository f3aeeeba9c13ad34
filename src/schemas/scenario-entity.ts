import { AlertSeverity } from './raised-alert';
import { DataSourceRunType } from './data-source-run';
import { RiskLevel } from './entity-validation';
import { ScenarioFormation } from './scenario-formation';
import { ScenarioOutcome, checkOutcomeSequence } from './scenario-outcome';
import { CountryCode, EntityCategory, Tin } from './primitives';
import { z } from './zod';

/** A scripted data source run: its type and the sequence of outcomes of its attempts. */
export const ScenarioRun = z
  .strictObject({
    type: DataSourceRunType,
    outcomes: z.array(ScenarioOutcome).min(1, { message: 'a run needs at least one outcome, like [{ succeeded: 20s }]' }),
    /** The records `GET /api/v2/data_source_runs/:id/records` answers once the run succeeded. */
    records: z.array(z.record(z.string(), z.unknown())).default([]),
  })
  .superRefine((run, context) => checkOutcomeSequence(run.outcomes, context, ['outcomes']));

/** An alert the rule engine raises on an entity when the run `raised_by` succeeds. */
export const ScenarioAlert = z.strictObject({
  name: z.string().min(1),
  severity: AlertSeverity,
  /** Run type whose success raises the alert; default: the entity's first run. */
  raised_by: z.string().optional(),
});

/**
 * A related entity (partner, stakeholder, UBO), possibly with partners of its
 * own. The main entity has the same shape, with a required country and no risk level.
 */
export const ScenarioPartner = z.strictObject({
  tin: Tin,
  /** Default: the main entity's country. */
  country: CountryCode.optional(),
  category: EntityCategory,
  name: z.string().min(1),
  surname: z.string().default(''),
  /** Default: name and surname. */
  display_name: z.string().optional(),
  risk_level: RiskLevel.default(null),
  runs: z.array(ScenarioRun).min(1, { message: 'an entity needs at least one data source run' }),
  alerts: z.array(ScenarioAlert).default([]),
  /** Run type whose success discovers the partners (stakeholder.created fires then); default: the run whose source is `registry` (as cl/registry), else the first run. */
  partners_discovered_by: z.string().optional(),
  formation: ScenarioFormation.optional(),
  /** Related entities, discovered when `partners_discovered_by` succeeds; absent means none. */
  get partners() {
    return z.array(ScenarioPartner).optional();
  },
});

/** The main entity of a scenario. */
export const ScenarioEntity = ScenarioPartner.omit({ risk_level: true }).extend({ country: CountryCode });

export type ScenarioRun = z.infer<typeof ScenarioRun>;
export type ScenarioAlert = z.infer<typeof ScenarioAlert>;
export type ScenarioPartner = z.infer<typeof ScenarioPartner>;
export type ScenarioEntity = z.infer<typeof ScenarioEntity>;

import {
  DataSourceRunBatch,
  EntityValidation,
  Formation,
  exampleDataSourceRunBatch,
  exampleEntityValidation,
  exampleFormation,
  examplePartnerBatch,
  type RaisedAlert,
  type RelatedEntity,
} from '../../src/schemas';

/** The simulated-clock instant every test report is generated at. */
export const GENERATED_AT = '2026-01-15T10:02:00.000Z';

/** A validation tree and its main batch, checked against the contract so the tests cannot drift from it. */
export interface Tree {
  validation: EntityValidation;
  batch: DataSourceRunBatch;
}

/** The spec example: Comercial Andes SpA with one partner, Ana Rojas. */
export function smallTree(): Tree {
  const validation = EntityValidation.parse(exampleEntityValidation());
  return { validation, batch: DataSourceRunBatch.parse(validation.data_source_run_batches[0]) };
}

const SEVERITIES: Array<RaisedAlert['severity']> = ['low', 'medium', 'high', 'critical'];

/**
 * The spec example grown to `count` partners, each with a related entity and
 * one run; every third partner has an alert, and partner 7's runs failed.
 */
export function treeWithPartners(count: number): Tree {
  const base = exampleEntityValidation();
  const main = exampleDataSourceRunBatch();
  const related: RelatedEntity[] = [];
  const children: DataSourceRunBatch[] = [];
  for (let i = 1; i <= count; i += 1) {
    const n = String(i).padStart(3, '0');
    const evl = `evl_PARTNER${n}`;
    const batchId = `dsrb_PARTNER${n}`;
    const tin = `${10000000 + i}-${i % 10}`;
    related.push({
      id: evl,
      tin,
      country: 'CL',
      display_name: `Socio ${n} Muñoz Ávila`,
      name: `Socio ${n}`,
      surname: 'Muñoz Ávila',
      category: 'person',
      risk_level: i % 2 === 0 ? 'low' : null,
    });
    const template = examplePartnerBatch();
    children.push({
      ...template,
      id: batchId,
      entity_validation_id: evl,
      tin,
      runs_succeeded: i !== 7,
      data_source_runs: template.data_source_runs.map((run) => ({
        ...run,
        id: `dsr_PARTNER${n}`,
        ...(i === 7 ? { status: 'definitive_error' as const, succeeded_at: null } : {}),
      })),
      raised_alerts:
        i % 3 === 0
          ? [
              {
                id: `rlal_PARTNER${n}`,
                name: `Alert of partner ${n}`,
                severity: SEVERITIES[i % 4] ?? 'low',
                entity_validation_id: evl,
                data_source_run_batch_id: batchId,
              },
            ]
          : [],
    });
  }
  const batch = DataSourceRunBatch.parse({ ...main, runs_succeeded: false, child_batches: children });
  const validation = EntityValidation.parse({ ...base, related_entities: related, data_source_run_batches: [batch] });
  return { validation, batch };
}

/** The spec example formation, checked against the contract. */
export function formation(): Formation {
  return Formation.parse(exampleFormation());
}

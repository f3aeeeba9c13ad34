import type { Scenario, ScenarioEntity, ScenarioPartner } from '../schemas';
import type { PlaySettings } from './engine-context';
import type { OrganizationState } from './organization-state';
import type { BatchRecord, RunRecord, ValidationRecord } from './records';

/** One entity of the tree in a play: its batch, and what it still waits for. */
export interface EntityPlay {
  validation: ValidationRecord;
  batch: BatchRecord;
  script: ScenarioEntity | ScenarioPartner;
  parent: EntityPlay | null;
  runsLeft: number;
  partnersLeft: number;
  complete: boolean;
}

/**
 * A tree play as plain data (a world's snapshot): what it plays, and each entity it started with what that
 * entity still waits for, parents first, by batch id. Its timers are kept by the clock's snapshot, tagged.
 */
export interface TreePlaySnapshot {
  /** The validation created through the API. */
  root: string;
  root_batch: string;
  scenario: Scenario;
  settings: PlaySettings;
  failed: boolean;
  entities: Array<{
    batch: string;
    validation: string;
    parent: string | null;
    script: ScenarioEntity | ScenarioPartner;
    runs_left: number;
    partners_left: number;
    complete: boolean;
  }>;
  /** Runs waiting in missing_input_data, with the index of the outcome they stopped at. */
  waiting: Array<{ run: string; index: number }>;
}

/** A play's parts, as {@link snapshotPlay} reads them. */
interface PlayParts {
  root: ValidationRecord;
  rootBatch: BatchRecord;
  scenario: Scenario;
  settings: PlaySettings;
  failed: boolean;
}

/** The snapshot of one play. */
export function snapshotPlay(play: PlayParts, entities: ReadonlyMap<string, EntityPlay>, waiting: ReadonlyMap<string, number>): TreePlaySnapshot {
  return {
    root: play.root.id,
    root_batch: play.rootBatch.id,
    scenario: play.scenario,
    settings: play.settings,
    failed: play.failed,
    entities: [...entities.values()].map((entity) => ({
      batch: entity.batch.id,
      validation: entity.validation.id,
      parent: entity.parent?.batch.id ?? null,
      script: entity.script,
      runs_left: entity.runsLeft,
      partners_left: entity.partnersLeft,
      complete: entity.complete,
    })),
    waiting: [...waiting].map(([run, index]) => ({ run, index })),
  };
}

/** What {@link restorePlay} fills: the play's entities, and its waiting runs through `waitFor`. */
interface RestoreTarget {
  state: OrganizationState;
  entities: Map<string, EntityPlay>;
  waitFor(entity: EntityPlay, run: RunRecord, index: number): void;
}

/**
 * Rebuilds a play's entities from its snapshot over the organization's restored records, and answers its
 * main batch; throws, naming the id, when the snapshot links to a record it does not hold.
 */
export function restorePlay(snapshot: TreePlaySnapshot, target: RestoreTarget): BatchRecord {
  const where = `the play of ${snapshot.root} (batch ${snapshot.root_batch})`;
  const find = <T>(map: ReadonlyMap<string, T>, id: string, what: string): T => {
    const found = map.get(id);
    if (found === undefined) throw new Error(`${where} names ${what} ${id}, which the snapshot does not hold`);
    return found;
  };
  const rootBatch = find(target.state.batches, snapshot.root_batch, 'the batch');
  for (const entity of snapshot.entities) {
    const parent = entity.parent === null ? null : find(target.entities, entity.parent, 'the parent entity of batch');
    target.entities.set(entity.batch, {
      validation: find(target.state.validations, entity.validation, 'the validation'),
      batch: find(target.state.batches, entity.batch, 'the batch'),
      script: entity.script,
      parent,
      runsLeft: entity.runs_left,
      partnersLeft: entity.partners_left,
      complete: entity.complete,
    });
  }
  for (const { run: runId, index } of snapshot.waiting) {
    const run = find(target.state.runs, runId, 'the waiting run');
    target.waitFor(find(target.entities, run.batchId, 'the entity of batch'), run, index);
  }
  return rootBatch;
}

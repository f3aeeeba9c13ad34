import { recordingContract } from './recording-contract';
import { compareTrees, differenceKey, type TreeDifference } from './compare-trees';
import { playableScenario } from './playable-scenario';
import { replayTree } from './replay-tree';
import { tokenClientAuth } from './token-client-auth';
import { treeFacts, treeIds, type TreeFacts } from '../proxy/recording-facts';
import { scenarioFromRecording } from '../proxy/recording-scenario';
import { DEFAULT_READINGS, DRIFT_REPORT_FORMAT, READINGS, type DriftReport, type DriftReportDifference, type Recording, type ScenarioInput } from '../schemas';

/** Options of {@link driftOf}. */
export interface DriftOptions {
  /** The recording files, as the report names them. */
  files: readonly string[];
  /** How far an event's offset from the create may differ before it is a difference (ms). */
  toleranceMs: number;
  /** Readings bvs-mock plays (`--reading`); each left out is bvs-mock's default. */
  readings?: Readonly<Record<string, string>>;
}

/**
 * `bvs-mock drift`: checks the recordings against the contract, then plays each recorded tree in bvs-mock (the
 * scenario `bvs-mock scenario from-recording` writes of it) and compares events, order, timings and payload fields.
 * Each reading of the spec whose other value plays the tree otherwise is tried: when it accounts for differences and
 * adds none, the recording refutes bvs-mock's choice (the differences name its row and the reading the recording
 * reads as); when it only adds differences, the recording confirms bvs-mock's choice.
 */
export async function driftOf(recordings: readonly Recording[], options: DriftOptions): Promise<DriftReport> {
  const readings: Record<string, string> = { ...DEFAULT_READINGS, ...options.readings };
  const contract = recordingContract(recordings);
  const report: DriftReport = {
    format: DRIFT_REPORT_FORMAT,
    version: 1,
    recordings: [...options.files],
    tolerance_ms: options.toleranceMs,
    readings,
    exchanges_checked: contract.exchanges,
    deliveries_checked: contract.deliveries,
    trees: [],
    differences: [...contract.differences],
    confirmations: [],
  };
  const token = tokenClientAuth(recordings, readings['token-client-auth']!);
  report.differences.push(...token.differences);
  report.confirmations.push(...token.confirmations);
  for (const treeId of treeIds(recordings)) {
    const recorded = treeFacts(recordings, treeId);
    const entry = {
      tree_id: treeId,
      display_name: recorded.entities.get(treeId)?.display_name ?? null,
      events_recorded: recorded.events.length,
      events_played: 0,
      not_played: null as string | null,
    };
    report.trees.push(entry);
    if (recorded.events.length === 0) {
      entry.not_played = 'no delivery of the tree was recorded: record its webhooks with bvs-mock listen --record as well';
      continue;
    }
    let scenario: ScenarioInput;
    try {
      scenario = playableScenario(scenarioFromRecording(recordings, { name: 'recorded-tree', tree: treeId })).scenario;
    } catch (error) {
      entry.not_played = (error as Error).message;
      continue;
    }
    const revalidateAt = revalidations(recorded);
    const play = async (values: Readonly<Record<string, string>>): Promise<TreeFacts> => {
      const played = await replayTree(scenario, values, revalidateAt);
      return treeFacts(played.recordings, played.rootId);
    };
    let played: TreeFacts;
    try {
      played = await play(readings);
    } catch (error) {
      entry.not_played = (error as Error).message;
      continue;
    }
    entry.events_played = played.events.length;
    const differences = compareTrees(recorded, played, options.toleranceMs);
    const keys = new Set(differences.map(differenceKey));
    const attributed = new Map<string, { name: string; value: string; row: number }>();
    for (const reading of READINGS) {
      for (const value of reading.values.filter((candidate) => candidate !== readings[reading.name])) {
        const other = await play({ ...readings, [reading.name]: value });
        // A reading the tree does not exercise plays it the same: the recording says nothing of it.
        if (compareTrees(played, other, 0).length === 0) continue;
        const otherKeys = new Set(compareTrees(recorded, other, options.toleranceMs).map(differenceKey));
        const explained = [...keys].filter((key) => !otherKeys.has(key));
        const added = [...otherKeys].filter((key) => !keys.has(key));
        const choice = `${reading.name}=${readings[reading.name]}`;
        if (explained.length > 0 && added.length === 0) for (const key of explained) attributed.set(key, { name: reading.name, value, row: reading.row });
        else if (explained.length === 0)
          report.confirmations.push({
            tree_id: treeId,
            row: reading.row,
            choice,
            evidence: `under ${reading.name}=${value} this tree plays otherwise (${added.length} difference(s) from the recording); as bvs-mock plays it by ${choice}, the recording matches`,
          });
      }
    }
    report.differences.push(...differences.map((difference) => reported(treeId, difference, attributed.get(differenceKey(difference)))));
  }
  return report;
}

/** When the recorded tree was revalidated: each batch of its main validation after the first, ms after the create. */
function revalidations(facts: TreeFacts): number[] {
  const start = Date.parse(facts.entities.get(facts.rootId)?.created_at ?? '');
  const created = [...facts.batches.values()]
    .filter((batch) => batch.entity_validation_id === facts.rootId && batch.parent_batch_id === null)
    .map((batch) => Date.parse(batch.created_at))
    .sort((a, b) => a - b);
  return Number.isNaN(start) ? [] : created.slice(1).map((at) => at - start);
}

function reported(treeId: string, difference: TreeDifference, reading: { name: string; value: string; row: number } | undefined): DriftReportDifference {
  const row = reading?.row ?? difference.row;
  return {
    tree_id: treeId,
    ...difference,
    row,
    verdict: row === null ? 'differs' : 'refutes',
    reading: reading === undefined ? null : { name: reading.name, value: reading.value },
    count: 1,
  };
}

/** Whether the report holds drift: a difference, or a tree that could not be compared (incomplete). */
export function driftOutcome(report: DriftReport): 'none' | 'drift' | 'incomplete' {
  if (report.differences.length > 0) return 'drift';
  return report.trees.length === 0 || report.trees.some((tree) => tree.not_played !== null) ? 'incomplete' : 'none';
}

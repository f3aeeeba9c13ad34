import type { ScenarioEntity, ScenarioPartner } from '../schemas';
import type { AlertRecord, RunRecord } from './records';
import type { EntityPlay } from './tree-play-snapshot';

/** What the script of an entity (the main one or a partner) says it runs. */
type EntityScript = ScenarioEntity | ScenarioPartner;

/** The source whose search results carry `bbs_` ids (spec §2, Ids). */
const BANKRUPTCY_BULLETIN = 'bankruptcy_bulletin';

/**
 * What a succeeded run found (docs/fidelity.md row 78): the script's records, or, when the script
 * gives none but the run raises alerts, one record per alert naming its finding, so a run that raises
 * an alert never reports `count: 0`; on a bankruptcy bulletin run each record is a search result with
 * its own `bbs_` id first.
 */
export function runRecords(run: RunRecord, raised: readonly AlertRecord[], bbsId: () => string): Array<Record<string, unknown>> {
  const scripted: Array<Record<string, unknown>> = structuredClone(run.script.records);
  const records: Array<Record<string, unknown>> =
    scripted.length > 0 ? scripted : raised.map((alert) => ({ finding: alert.name, severity: alert.severity, raised_alert_id: alert.id }));
  if (run.sourceName !== BANKRUPTCY_BULLETIN) return records;
  return records.map((record) => (typeof record.id === 'string' && record.id.startsWith('bbs_') ? record : { id: bbsId(), ...record }));
}

/** The run whose success discovers the partners: as scripted, else the `registry` source, else the first run (docs/fidelity.md row 24). */
export function discoveryRun(script: EntityScript): string {
  if (script.partners_discovered_by !== undefined) return script.partners_discovered_by;
  return script.runs.find((run) => run.type.endsWith('/registry'))?.type ?? script.runs[0]!.type;
}

/** Whether a run of a partner (at any depth) of a play ended in definitive_error. */
export function partnerFailed(entities: Iterable<EntityPlay>, runs: ReadonlyMap<string, RunRecord>): boolean {
  for (const entity of entities) {
    if (entity.parent !== null && entity.batch.runIds.some((id) => runs.get(id)?.status === 'definitive_error')) return true;
  }
  return false;
}

/** A webhook event as the service sends it: `type` and one resource key (spec §6). */
export interface BvsEvent {
  type: string;
  [resource: string]: unknown;
}

interface Alert {
  id: string;
  name: string;
  severity: string;
}

interface BatchResource {
  id: string;
  entity_validation_id: string;
  runs_succeeded: boolean;
  consolidated_report_url?: string | null;
  raised_alerts?: Alert[];
  child_batches?: Array<{ id: string; tin: string; runs_succeeded: boolean; raised_alerts?: Alert[] }>;
}

/** What we know of one validation tree, gathered by its main batch's id (spec §6 rule 4: correlate by `data_source_run_batch.id`). */
export interface TreeState {
  batchId: string;
  entityValidationId: string;
  /** `data_source_run_batch.ready` arrived. */
  ready: boolean;
  /** The main batch's `runs_succeeded` as last seen: only `true` makes its results usable. */
  runsSucceeded: boolean;
  /** `child_batches_ready` arrived: the whole tree is done. */
  treeComplete: boolean;
  /** Partners by their batch id: whether their alerts are final yet. */
  partners: Map<string, { tin: string; runsSucceeded: boolean; alerts: Alert[] }>;
  mainAlerts: Alert[];
  reportUrl: string | null;
  /** Runs seen ready, by id, with their status. */
  runs: Map<string, string>;
}

/**
 * The processing side of the receiver: folds events into per-tree state, whatever order they arrive in
 * (retries and redeliveries reorder them), and says which results are usable.
 */
export class ValidationTracker {
  private readonly trees = new Map<string, TreeState>();
  /** Events by type, for a look at what arrived. */
  readonly seen = new Map<string, number>();

  apply(event: BvsEvent): void {
    this.seen.set(event.type, (this.seen.get(event.type) ?? 0) + 1);
    if (event.type === 'data_source_run_batch.data_source_run.ready') {
      const run = event.data_source_run as { id: string; status: string; data_source_run_batch_id: string; entity_validation_id: string };
      this.tree(run.data_source_run_batch_id, run.entity_validation_id).runs.set(run.id, run.status);
      return;
    }
    if (!event.type.startsWith('data_source_run_batch.')) return;
    const batch = event.data_source_run_batch as BatchResource;
    const tree = this.tree(batch.id, batch.entity_validation_id);
    tree.runsSucceeded = batch.runs_succeeded;
    tree.mainAlerts = batch.raised_alerts ?? tree.mainAlerts;
    for (const child of batch.child_batches ?? []) {
      const known = tree.partners.get(child.id);
      // A partner's alerts are final once its own runs_succeeded is true; an older snapshot never undoes that.
      if (known?.runsSucceeded && !child.runs_succeeded) continue;
      tree.partners.set(child.id, { tin: child.tin, runsSucceeded: child.runs_succeeded, alerts: child.raised_alerts ?? [] });
    }
    if (event.type === 'data_source_run_batch.ready') tree.ready = true;
    if (event.type === 'data_source_run_batch.child_batches_ready') tree.treeComplete = true;
    if (event.type === 'data_source_run_batch.consolidated_report_ready') tree.reportUrl = batch.consolidated_report_url ?? null;
  }

  /** The tree of a main batch, or undefined when no event named it yet. */
  get(batchId: string): TreeState | undefined {
    return this.trees.get(batchId);
  }

  /**
   * The alerts we may act on (spec §6 rule 4: check `runs_succeeded` before using results): the main batch's
   * when its runs succeeded, plus every partner's whose own runs succeeded. Others are partial.
   */
  finalAlerts(batchId: string): Alert[] {
    const tree = this.trees.get(batchId);
    if (!tree || !tree.runsSucceeded) return [];
    return [...tree.mainAlerts, ...[...tree.partners.values()].filter((partner) => partner.runsSucceeded).flatMap((partner) => partner.alerts)];
  }

  private tree(batchId: string, entityValidationId: string): TreeState {
    let tree = this.trees.get(batchId);
    if (!tree) {
      tree = {
        batchId,
        entityValidationId,
        ready: false,
        runsSucceeded: false,
        treeComplete: false,
        partners: new Map(),
        mainAlerts: [],
        reportUrl: null,
        runs: new Map(),
      };
      this.trees.set(batchId, tree);
    }
    return tree;
  }
}

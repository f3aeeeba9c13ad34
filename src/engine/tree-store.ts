import type { UrlSigner } from '../reports/url-signer';
import type { Scenario, ValidationSummary, ValidationTree } from '../schemas';
import { pairs, restoreOrganization, snapshotOrganization, type TreeStoreSnapshot } from './engine-snapshot';
import { evictTree } from './evict-tree';
import type { InformationRequestFlow } from './information-request-flow';
import { InsertionOrder } from './insertion-order';
import { OrganizationState } from './organization-state';
import { renderTree, summarizeValidation } from './render-tree';
import type { TreePlay } from './tree-play';
import type { TreePlaySnapshot } from './tree-play-snapshot';

/** How {@link TreeStore.restore} makes the plays and flows of a snapshot, over their organization's restored records. */
export interface PlayMakers {
  play(state: OrganizationState, snapshot: TreePlaySnapshot): TreePlay;
  flow(state: OrganizationState, id: string): InformationRequestFlow;
}

/** Ids of evicted resources remembered, so that reading one says "evicted" rather than "never existed"; older ones answer not_found (README, Retention; docs/fidelity.md row 59). */
export const MAX_TOMBSTONES = 100_000;

/**
 * What an engine keeps: every organization's state, and each main validation's tree with its plays,
 * information request flows and scenario, in creation order. At most `maxValidations` trees are kept;
 * past that the oldest settled one is evicted, and its ids are remembered as evicted (docs/fidelity.md row 59).
 */
export class TreeStore {
  private readonly organizations = new Map<string, OrganizationState>();
  /** Plays by main batch id, and scenarios by main validation id (for revalidations). */
  private readonly plays = new Map<string, TreePlay>();
  private readonly scenarios = new Map<string, Scenario>();
  /** The label of the request that created each main validation that had one (docs/design.md, "Sessions"). */
  private readonly labels = new Map<string, string>();
  private readonly flows = new Map<string, InformationRequestFlow>();
  /** Main validations, oldest first, with their organization: the order of eviction. */
  private readonly roots = new InsertionOrder<string>();
  /** Evicted ids (validations, information requests) and their organization, oldest first. */
  private readonly tombstones = new InsertionOrder<string>();
  private evictedValidations = 0;
  /** Main validations' places in creation order (from 1): the cursor of the dashboard's list. */
  private readonly ordinals = new Map<string, number>();
  private created = 0;

  /**
   * @param signer signs the pre-signed URLs of each organization's files
   * @param maxValidations main validations kept with their trees
   */
  constructor(
    private readonly signer: UrlSigner,
    private readonly maxValidations: number,
  ) {}

  /** The state of one organization (created empty on first use). */
  organization(organizationId: string): OrganizationState {
    let state = this.organizations.get(organizationId);
    if (!state) {
      state = new OrganizationState(organizationId, this.signer);
      this.organizations.set(organizationId, state);
    }
    return state;
  }

  /** The state of one organization, or undefined when nothing has used it yet. */
  find(organizationId: string): OrganizationState | undefined {
    return this.organizations.get(organizationId);
  }

  /** Every organization's state, in the order of first use. */
  states(): IterableIterator<OrganizationState> {
    return this.organizations.values();
  }

  /** Keeps a play, by the id of its main batch. */
  addPlay(play: TreePlay): void {
    this.plays.set(play.rootBatch.id, play);
  }

  /** The play whose main batch this is; undefined for a related entity's batch or an evicted tree. */
  play(batchId: string): TreePlay | undefined {
    return this.plays.get(batchId);
  }

  /** Keeps an information request's flow, by the request's id. */
  addFlow(flow: InformationRequestFlow): void {
    this.flows.set(flow.record.id, flow);
  }

  /** The flow of an information request, while its tree is kept. */
  flow(id: string): InformationRequestFlow | undefined {
    return this.flows.get(id);
  }

  /** Keeps a main validation created through the API, with the scenario its tree plays, as the newest. */
  addRoot(rootId: string, organizationId: string, scenario: Scenario, label?: string): void {
    this.scenarios.set(rootId, scenario);
    if (label !== undefined) this.labels.set(rootId, label);
    this.roots.set(rootId, organizationId);
    this.created += 1;
    this.ordinals.set(rootId, this.created);
  }

  /** The label of the request that created a main validation, while its tree is kept; undefined when it had none. */
  labelOf(rootId: string): string | undefined {
    return this.labels.get(rootId);
  }

  /** The scenario a validation created through the API plays, while its tree is kept. */
  scenarioOf(rootId: string): Scenario | undefined {
    return this.scenarios.get(rootId);
  }

  /**
   * Keeps at most `maxValidations` main validations: the oldest settled tree
   * goes first (nothing of it is scheduled any more); when none of the oldest
   * has settled, the oldest goes anyway and what it had scheduled is cancelled,
   * so memory stays bounded whatever the clock does (docs/fidelity.md row 59).
   */
  enforceRetention(): void {
    while (this.roots.size > this.maxValidations) {
      let victim: string | undefined;
      let oldest: string | undefined;
      let scanned = 0;
      for (const id of this.roots.oldest()) {
        oldest ??= id;
        if (this.treeSettled(id)) {
          victim = id;
          break;
        }
        if (++scanned === 64) break;
      }
      this.evict(victim ?? oldest!);
    }
  }

  /**
   * Whether the validation's tree (every play and information request flow of it) has nothing left
   * scheduled; undefined for an id that is not a validation created through the API in this organization.
   */
  isSettled(organizationId: string, validationId: string): boolean | undefined {
    if (this.roots.get(validationId) !== organizationId) return undefined;
    return this.treeSettled(validationId);
  }

  private treeSettled(rootId: string): boolean {
    const state = this.organizations.get(this.roots.get(rootId)!);
    const root = state?.validations.get(rootId);
    if (!root) return true;
    return root.batchIds.every((id) => this.plays.get(id)?.settled ?? true) && root.informationRequestIds.every((id) => this.flows.get(id)?.settled ?? true);
  }

  private evict(rootId: string): void {
    const organizationId = this.roots.get(rootId)!;
    this.roots.delete(rootId);
    this.ordinals.delete(rootId);
    const state = this.organizations.get(organizationId);
    const root = state?.validations.get(rootId);
    if (!state || !root) return;
    for (const id of root.batchIds) {
      this.plays.get(id)?.stop();
      this.plays.delete(id);
    }
    for (const id of root.informationRequestIds) {
      this.flows.get(id)?.stop();
      this.flows.delete(id);
    }
    this.scenarios.delete(rootId);
    this.labels.delete(rootId);
    const tree = evictTree(state, root);
    this.evictedValidations += 1;
    // Validations and information requests (whose recipient page is public) say "evicted"; batches and runs are plain not found.
    for (const ids of [tree.validationIds, tree.informationRequestIds]) for (const id of ids) this.tombstones.set(id, organizationId);
    while (this.tombstones.size > MAX_TOMBSTONES) this.tombstones.shift();
  }

  /** Whether `id` named a resource of the organization that retention evicted. */
  wasEvicted(organizationId: string, id: string): boolean {
    return this.tombstones.get(id) === organizationId;
  }

  /** What retention keeps and has evicted (`GET /_mock/health`). */
  retention(): { validations: number; max_validations: number; evicted_validations: number } {
    return { validations: this.roots.size, max_validations: this.maxValidations, evicted_validations: this.evictedValidations };
  }

  /**
   * An organization's main validations, newest first, from just before the one at place `before` (the
   * dashboard's list), with how many it keeps in all and the place of the last one listed when more remain.
   */
  listValidations(
    organizationId: string,
    page: { before?: number; limit: number; fits?: (summary: ValidationSummary) => boolean },
  ): { validations: ValidationSummary[]; total: number; next: number | null } {
    const state = this.organizations.get(organizationId);
    const ids: string[] = [];
    for (const id of this.roots.oldest()) if (this.roots.get(id) === organizationId) ids.push(id);
    const validations: ValidationSummary[] = [];
    let next: number | null = null;
    for (let index = ids.length - 1; index >= 0 && state !== undefined; index -= 1) {
      const id = ids[index]!;
      const ordinal = this.ordinals.get(id)!;
      if (page.before !== undefined && ordinal >= page.before) continue;
      const summary =
        validations.length === page.limit ? undefined : summarizeValidation(state, OrganizationState.must(state.validations, id), this.treeFacts(id));
      // The page is full by count, or by size (its byte budget): the next page starts after the last one listed.
      if (summary === undefined || page.fits?.(summary) === false) {
        next = validations.length === 0 ? null : this.ordinals.get(validations.at(-1)!.id)!;
        break;
      }
      validations.push(summary);
    }
    return { validations, total: ids.length, next };
  }

  /** A main validation's whole tree as it stands at `now`, or undefined when the organization has no such main validation. */
  getTree(organizationId: string, id: string, now: number): ValidationTree | undefined {
    if (this.roots.get(id) !== organizationId) return undefined;
    const state = this.organizations.get(organizationId);
    const root = state?.validations.get(id);
    return state && root ? renderTree(state, root, this.treeFacts(id), now) : undefined;
  }

  private treeFacts(rootId: string): { scenario: string | null; settled: boolean } {
    return { scenario: this.scenarios.get(rootId)?.name ?? null, settled: this.treeSettled(rootId) };
  }

  /** Everything kept, as plain data (a world's snapshot). */
  snapshot(): TreeStoreSnapshot {
    const ordered = <V>(order: InsertionOrder<V>): Array<[string, V]> => [...order.oldest()].map((id) => [id, order.get(id)!]);
    return {
      organizations: [...this.organizations.values()].map(snapshotOrganization),
      roots: ordered(this.roots),
      ordinals: [...this.ordinals],
      created: this.created,
      tombstones: ordered(this.tombstones),
      evicted_validations: this.evictedValidations,
      scenarios: [...this.scenarios],
      labels: [...this.labels],
      plays: [...this.plays.values()].map((play) => ({ ...play.snapshot(), organization: play.organizationId })),
      flows: [...this.flows.values()].map((flow) => ({ id: flow.record.id, organization: flow.organizationId })),
    };
  }

  /** Takes what a snapshot kept, into this empty store; throws, naming what, on a snapshot that does not hold together. */
  restore(snapshot: TreeStoreSnapshot, makers: PlayMakers): void {
    if (!Array.isArray(snapshot.organizations)) throw new Error('engine.trees.organizations is not a list');
    for (const organization of snapshot.organizations) this.organizations.set(organization.id, restoreOrganization(organization, this.signer));
    const state = (id: string, what: string): OrganizationState => {
      const found = this.organizations.get(id);
      if (found === undefined) throw new Error(`${what} names organization ${id}, which the snapshot holds no state of`);
      return found;
    };
    for (const [id, organization] of pairs(snapshot.roots, 'engine.trees.roots')) {
      if (!state(organization, `root ${id}`).validations.has(id)) throw new Error(`root ${id} is not a validation of organization ${organization}`);
      this.roots.set(id, organization);
    }
    for (const [id, ordinal] of pairs(snapshot.ordinals, 'engine.trees.ordinals')) this.ordinals.set(id, ordinal);
    for (const [id, organization] of pairs(snapshot.tombstones, 'engine.trees.tombstones')) this.tombstones.set(id, organization);
    for (const [id, scenario] of pairs(snapshot.scenarios, 'engine.trees.scenarios')) this.scenarios.set(id, scenario);
    for (const [id, label] of pairs(snapshot.labels ?? [], 'engine.trees.labels')) this.labels.set(id, label);
    this.created = snapshot.created;
    this.evictedValidations = snapshot.evicted_validations;
    if (!Array.isArray(snapshot.plays) || !Array.isArray(snapshot.flows)) throw new Error('engine.trees.plays and engine.trees.flows must be lists');
    for (const play of snapshot.plays) this.addPlay(makers.play(state(play.organization, `the play of ${play.root}`), play));
    for (const flow of snapshot.flows) this.addFlow(makers.flow(state(flow.organization, `information request ${flow.id}`), flow.id));
  }

  /** Forgets every organization, tree and tombstone; creation order starts over. */
  clear(): void {
    this.organizations.clear();
    this.plays.clear();
    this.scenarios.clear();
    this.labels.clear();
    this.flows.clear();
    this.roots.clear();
    this.ordinals.clear();
    this.created = 0;
    this.tombstones.clear();
    this.evictedValidations = 0;
  }
}

import type { Scenario } from '../schemas';
import type { UrlSigner } from '../reports/url-signer';
import type { RandomState } from './random';
import { OrganizationState } from './organization-state';
import type { FormationRecord, RunRecord, ValidationRecord } from './records';
import type { TreePlaySnapshot } from './tree-play-snapshot';

/** A validation record as plain data: its partners by TIN as pairs. */
type ValidationData = Omit<ValidationRecord, 'partnersByTin'> & { partnersByTin: Array<[string, string]> };
/** A run record as plain data: whether it waits for input is its play's (restored with it). */
type RunData = Omit<RunRecord, 'waitingForInput'>;
/** A formation record as plain data: its stakeholders by TIN as pairs. */
type FormationData = Omit<FormationRecord, 'stakeholderIds'> & { stakeholderIds: Array<[string, string]> };

/** One organization's records as plain data, each list in the order the organization's maps hold them. */
export interface OrganizationSnapshot {
  id: string;
  validations: ValidationData[];
  batches: Array<OrganizationState['batches'] extends Map<string, infer T> ? T : never>;
  runs: RunData[];
  alerts: Array<OrganizationState['alerts'] extends Map<string, infer T> ? T : never>;
  formations: Array<[string, FormationData[]]>;
  informationRequests: Array<OrganizationState['informationRequests'] extends Map<string, infer T> ? T : never>;
  requestableItems: Array<OrganizationState['requestableItems'] extends Map<string, infer T> ? T : never>;
  assignments: Array<OrganizationState['assignments'] extends Map<string, infer T> ? T : never>;
}

/** What the tree store keeps, as plain data (see `TreeStore`). */
export interface TreeStoreSnapshot {
  organizations: OrganizationSnapshot[];
  /** Main validations, oldest first, with their organization. */
  roots: Array<[string, string]>;
  ordinals: Array<[string, number]>;
  created: number;
  tombstones: Array<[string, string]>;
  evicted_validations: number;
  /** The scenario each main validation plays. */
  scenarios: Array<[string, Scenario]>;
  /** The label of the request that created a main validation, where it had one (its delivery records show it). */
  labels?: Array<[string, string]>;
  plays: Array<TreePlaySnapshot & { organization: string }>;
  /** Information request flows: the request's id and organization (the record is the organization's). */
  flows: Array<{ id: string; organization: string }>;
}

/** The engine as plain data (a world's snapshot); its timers are the clock's, tagged (`PlayTimerTag`). */
export interface EngineSnapshot {
  actions: number;
  /** Where the id source's random draws stand. */
  ids: RandomState;
  /** The number of the last event emitted. */
  sequence: number;
  trees: TreeStoreSnapshot;
}

/** The records of one organization as plain data (sharing the live records: the world's snapshot copies the whole). */
export function snapshotOrganization(state: OrganizationState): OrganizationSnapshot {
  return {
    id: state.id,
    validations: [...state.validations.values()].map((record) => ({ ...record, partnersByTin: [...record.partnersByTin] })),
    batches: [...state.batches.values()],
    runs: [...state.runs.values()].map(({ waitingForInput: _waiting, ...run }) => run),
    alerts: [...state.alerts.values()],
    formations: [...state.formations].map(([id, list]) => [id, list.map((formation) => ({ ...formation, stakeholderIds: [...formation.stakeholderIds] }))]),
    informationRequests: [...state.informationRequests.values()],
    requestableItems: [...state.requestableItems.values()],
    assignments: [...state.assignments.values()],
  };
}

/** One organization's state rebuilt from its snapshot; throws, naming where, on a record without an id. */
export function restoreOrganization(snapshot: OrganizationSnapshot, signer: UrlSigner): OrganizationState {
  const state = new OrganizationState(snapshot.id, signer);
  const where = `organization ${snapshot.id}`;
  fill(state.validations, snapshot.validations, `${where}: validations`, (record) => ({
    ...record,
    partnersByTin: new Map(pairs(record.partnersByTin, where)),
  }));
  fill(state.batches, snapshot.batches, `${where}: batches`, (record) => record);
  fill(state.runs, snapshot.runs, `${where}: runs`, (record) => ({ ...record, waitingForInput: null }));
  fill(state.alerts, snapshot.alerts, `${where}: alerts`, (record) => record);
  fill(state.informationRequests, snapshot.informationRequests, `${where}: informationRequests`, (record) => record);
  fill(state.requestableItems, snapshot.requestableItems, `${where}: requestableItems`, (record) => record);
  fill(state.assignments, snapshot.assignments, `${where}: assignments`, (record) => record);
  for (const [id, list] of pairs(snapshot.formations, `${where}: formations`)) {
    if (!Array.isArray(list)) throw new Error(`${where}: formations of ${id} is not a list`);
    state.formations.set(
      id,
      list.map((formation) => ({ ...formation, stakeholderIds: new Map(pairs(formation.stakeholderIds, `${where}: formation of ${id}`)) })),
    );
  }
  return state;
}

function fill<D extends { id: string }, R>(map: Map<string, R>, list: readonly D[], where: string, build: (record: D) => R): void {
  if (!Array.isArray(list)) throw new Error(`${where} is not a list`);
  list.forEach((record, index) => {
    if (typeof record !== 'object' || record === null || typeof record.id !== 'string') throw new Error(`${where}[${index}] is not a record with an id`);
    map.set(record.id, build(record));
  });
}

/** A list of [key, value] pairs, checked. */
export function pairs<V>(list: ReadonlyArray<[string, V]>, where: string): Array<[string, V]> {
  if (!Array.isArray(list) || !list.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string')) {
    throw new Error(`${where}: expected a list of [key, value] pairs`);
  }
  return list as Array<[string, V]>;
}

import type {
  AlertRecord,
  AssignmentRecord,
  BatchRecord,
  FormationRecord,
  InformationRequestRecord,
  RequestableItemRecord,
  RunRecord,
  ValidationRecord,
} from './records';

/**
 * Everything one organization owns. Organizations never share records: an id
 * of organization A is simply absent from organization B's maps (docs/design.md, "The API").
 */
export class OrganizationState {
  readonly validations = new Map<string, ValidationRecord>();
  readonly batches = new Map<string, BatchRecord>();
  readonly runs = new Map<string, RunRecord>();
  readonly alerts = new Map<string, AlertRecord>();
  /** Formations by validation id, latest last. */
  readonly formations = new Map<string, FormationRecord[]>();
  readonly informationRequests = new Map<string, InformationRequestRecord>();
  readonly requestableItems = new Map<string, RequestableItemRecord>();
  readonly assignments = new Map<string, AssignmentRecord>();

  constructor(readonly id: string) {}

  /** A record that must exist because the engine itself linked to it. */
  static must<T>(map: Map<string, T>, id: string): T {
    const record = map.get(id);
    if (record === undefined) throw new Error(`bvs-mock engine: dangling reference to ${id}`);
    return record;
  }
}

import type {
  AlertRecord,
  AssignmentRecord,
  BatchRecord,
  FormationRecord,
  InformationRequestRecord,
  RequestableItemRecord,
  RunRecord,
  SignedFile,
  ValidationRecord,
} from './records';
import { PRESIGNED_URL_LIFETIME_MS, type UrlSigner } from '../reports/url-signer';

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

  /**
   * @param signer signs the pre-signed URLs of this organization's files when a record is rendered
   */
  constructor(
    readonly id: string,
    readonly signer: UrlSigner,
  ) {}

  /**
   * The URL of a file: signed at its issue instant, or at `reissueAt` for an operation that re-fetches URLs
   * (docs/fidelity.md rows 18, 77); a read at `readAt` signs it anew at the read only once the URL issued
   * with the file has expired, so before that it answers the URL its events carried.
   */
  signedUrl(file: SignedFile, reissueAt?: number, readAt?: number): string {
    if (reissueAt !== undefined) return this.signer.sign(file.path, reissueAt);
    const expired = readAt !== undefined && readAt >= file.issuedAt + PRESIGNED_URL_LIFETIME_MS;
    return this.signer.sign(file.path, expired ? readAt : file.issuedAt);
  }

  /** A record that must exist because the engine itself linked to it. */
  static must<T>(map: Map<string, T>, id: string): T {
    const record = map.get(id);
    if (record === undefined) throw new Error(`bvs-mock engine: dangling reference to ${id}`);
    return record;
  }
}

import type { SimulatedClock } from '../clock';
import type { UrlSigner } from '../reports/url-signer';
import type { EventType, Readings } from '../schemas';
import type { IdSource } from './id-source';
import type { OrganizationState } from './organization-state';

/** What to emit: the engine adds the sequence number, organization and time. */
export interface EmitInput {
  type: EventType;
  /**
   * Renders the resource the envelope carries. Called at most once, during the emission (so the
   * payload is a snapshot of that instant), and only when a sink reads the body: an event nobody
   * receives is never rendered.
   */
  resource: () => unknown;
  validationId: string;
  resourceId: string;
  legacyWebhookUrl: string | null;
}

/** Organization settings the engine reads (spec §6 rule 4: child_batches_ready is gated by one). */
export interface PlaySettings {
  child_batches_ready: boolean;
}

/** The services every part of a play uses; one per engine. */
export interface EngineContext {
  clock: SimulatedClock;
  ids: IdSource;
  signer: UrlSigner;
  /** The readings this engine plays where the spec contradicts itself (src/schemas/readings.ts). */
  readings: Readings;
  emit(state: OrganizationState, input: EmitInput): void;
}

/**
 * Paths of the files behind pre-signed URLs (served by the API server). The
 * organization is part of the path, so the signature covers it and the file
 * route looks in that organization's state only (docs/fidelity.md).
 */
export const FILE_PATHS = {
  /** Each generation of a main batch's report has its own file: `dsrb_…_1.pdf`, `dsrb_…_2.pdf`, … (docs/fidelity.md row 122). */
  consolidatedReport: (organizationId: string, batchId: string, edition: number) =>
    `/_mock/files/${encodeURIComponent(organizationId)}/reports/${batchId}_${edition}.pdf`,
  legalReport: (organizationId: string, batchId: string) => `/_mock/files/${encodeURIComponent(organizationId)}/legal_reports/${batchId}.pdf`,
  document: (organizationId: string, documentId: string) => `/_mock/files/${encodeURIComponent(organizationId)}/documents/${documentId}.pdf`,
} as const;

/** Path of the page where the recipient of an information request answers it. */
export function recipientPath(requestId: string): string {
  return `/_mock/recipient/${requestId}`;
}

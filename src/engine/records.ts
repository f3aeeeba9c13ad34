import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type {
  AlertSeverity,
  AnalysisMessage,
  AssignmentStatus,
  DataSourceRunStatus,
  EntityCategory,
  InformationRequestStatus,
  LegacyWebhook,
  RequestableItemStatus,
  RiskLevel,
  ScenarioFormation,
  ScenarioRequestableItem,
  ScenarioRun,
  z,
  DataSourceRunBatch,
  EntityValidation,
} from '../schemas';

/**
 * The engine's internal state: mutable records, one per resource, linked by
 * id. API shapes are rendered from them on demand (see `render-*.ts`), so
 * every event and response is a fresh snapshot.
 */

/**
 * A file behind a pre-signed URL: its path and the instant its URL was issued. Records keep these,
 * never URLs: every render signs them (with the current public address), so a read never writes
 * (docs/fidelity.md row 77).
 */
export interface SignedFile {
  path: string;
  issuedAt: number;
}

/** An entity validation: the main entity of a tree, or a related entity. */
export interface ValidationRecord {
  id: string;
  organizationId: string;
  tin: string;
  country: string;
  category: z.infer<typeof EntityCategory>;
  name: string;
  surname: string;
  displayName: string;
  riskLevel: z.infer<typeof RiskLevel>;
  createdAt: string;
  /** Batches of this validation, oldest first (a revalidation adds one). */
  batchIds: string[];
  /** Related entities made visible by discovery, in discovery order. */
  relatedEntityIds: string[];
  informationRequestIds: string[];
  webhook: LegacyWebhook | null;
  /** The validation created through the API that this one belongs to (itself for a main entity). */
  rootId: string;
  /** Partner validations by TIN, created on first need (discovery or a formation naming them). */
  partnersByTin: Map<string, string>;
  /** Whether `child_batches_ready` fired for this validation: it fires once per validation (spec §6 rule 4). */
  childBatchesReadyFired: boolean;
}

/** One generation of a consolidated report: its number, its file, when, and the tree as it was then. */
export interface ReportEdition {
  edition: number;
  file: SignedFile;
  generatedAt: string;
  /**
   * The validation and main batch as rendered then ({@link ReportTree}): JSON, deflated, in base64 (about 3 kB for a
   * tree of 9 kB of JSON), as it is kept for every main batch and read only to draw the PDF (`readReportTree`).
   */
  tree: string;
}

/** What {@link ReportEdition.tree} holds. */
export interface ReportTree {
  validation: EntityValidation;
  batch: DataSourceRunBatch;
}

/** A report's tree as {@link ReportEdition.tree} keeps it. */
export function keepReportTree(tree: ReportTree): string {
  return deflateRawSync(JSON.stringify(tree)).toString('base64');
}

/** A report's tree from what {@link keepReportTree} kept. */
export function readReportTree(kept: string): ReportTree {
  return JSON.parse(inflateRawSync(Buffer.from(kept, 'base64')).toString('utf8')) as ReportTree;
}

/** A data source run batch. */
export interface BatchRecord {
  id: string;
  validationId: string;
  tin: string;
  informationRequestId: string | null;
  parentBatchId: string | null;
  executionType: 'direct' | 'related';
  createdAt: string;
  updatedAt: string;
  /** The consolidated report, once generated; its URL is signed when rendered (docs/fidelity.md row 77). */
  consolidatedReport: SignedFile | null;
  /** When the consolidated report was generated (the PDF's date), or null. */
  reportGeneratedAt: string | null;
  /**
   * Every generation of the consolidated report kept, oldest first, each with the tree as it was then: a report is
   * what the tree was when it was generated, and each has its own URL (docs/fidelity.md row 122).
   */
  reports?: ReportEdition[];
  runIds: string[];
  alertIds: string[];
  childBatchIds: string[];
  runsSucceeded: boolean;
  webhook: LegacyWebhook | null;
}

/** A data source run and what is left of its script. */
export interface RunRecord {
  id: string;
  type: string;
  /** The part of `type` after the slash: the key of the run's `data` (docs/fidelity.md row 3). */
  sourceName: string;
  validationId: string;
  batchId: string;
  createdAt: string;
  succeededAt: string | null;
  status: z.infer<typeof DataSourceRunStatus>;
  /** Every status the run reached, with its simulated instant, oldest first (the dashboard's run history). */
  history: Array<{ status: z.infer<typeof DataSourceRunStatus>; at: string }>;
  script: ScenarioRun;
  /**
   * What the run found, fixed when it succeeds (empty before): the script's records, one more for each
   * alert it raises that no record backs, and a `bbs_` id on each bankruptcy bulletin search result
   * (docs/fidelity.md row 78). `count` and the records endpoint both read it.
   */
  records: Array<Record<string, unknown>>;
  /** Set while the run waits in `missing_input_data`: resumes the script once input arrives. */
  waitingForInput: { resume(): void } | null;
}

/** A raised alert. */
export interface AlertRecord {
  id: string;
  name: string;
  severity: z.infer<typeof AlertSeverity>;
  validationId: string;
  batchId: string;
}

/** The formation delivered by one play (a revalidation makes a new one). */
export interface FormationRecord {
  validationId: string;
  batchId: string;
  script: ScenarioFormation;
  documents: Array<{ id: string; name: string; label: string; source: string; cve: string; file: SignedFile; createdAt: string }>;
  legalReport: SignedFile;
  /** When the legal report was generated (the PDF's date). */
  createdAt: string;
  /** Formation stakeholders' validation ids, by TIN. */
  stakeholderIds: Map<string, string>;
}

/** One requestable item of an information request. */
export interface RequestableItemRecord {
  id: string;
  informationRequestId: string;
  name: string;
  kind: 'document' | 'text';
  status: z.infer<typeof RequestableItemStatus>;
  documentId: string | null;
  extractedData: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
  script: z.infer<typeof ScenarioRequestableItem>;
}

/** One reviewer assignment. */
export interface AssignmentRecord {
  id: string;
  informationRequestId: string;
  reviewerEmail: string;
  role: 'reviewer' | 'responsible';
  status: z.infer<typeof AssignmentStatus>;
  createdAt: string;
  updatedAt: string;
}

/** An information request. */
export interface InformationRequestRecord {
  id: string;
  validationId: string;
  name: string;
  templateId: string;
  status: z.infer<typeof InformationRequestStatus>;
  createdAt: string;
  recipientUrl: string;
  /** The main batch's consolidated report, once generated (signed when rendered). */
  consolidatedReport: SignedFile | null;
  responsibleComment: string | null;
  itemIds: string[];
  assignmentIds: string[];
  informationSheet: Record<string, unknown> | null;
  analysisChat: Array<z.infer<typeof AnalysisMessage>>;
  webhook: LegacyWebhook | null;
  batchId: string;
  /** Whether all_items_collected has fired (it fires once). */
  collected: boolean;
}

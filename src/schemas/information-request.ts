import { idOf } from './ids';
import { outbound } from './outbound';
import { DataSourceRunBatch } from './data-source-run-batch';
import { LegacyWebhook } from './legacy-webhook';
import { HttpUrl, Timestamp } from './primitives';
import { z } from './zod';
import { seenValues } from './seen-values';

/**
 * Information request status. The spec shows only `pending`; bvs-mock's further
 * states and transitions are in docs/fidelity.md row 13.
 */
export const InformationRequestStatus = z
  .enum(['pending', 'items_collected', 'in_review', 'evaluated'])
  .openapi({ description: 'Value seen in the spec: pending. bvs-mock also uses items_collected, in_review, evaluated.' });

/** State of one requestable item (element shape not shown by the spec; docs/fidelity.md). */
export const RequestableItemStatus = z.enum(['pending', 'submitted', 'extracted', 'extraction_failed']);

/** One item the recipient is asked to provide (element shape chosen by bvs-mock; docs/fidelity.md). */
export const RequestableItem = outbound(
  z.strictObject({
    id: idOf('rqi'),
    information_request_id: idOf('irq'),
    name: z.string().openapi({ example: 'Bank certificate' }),
    kind: z.enum(['document', 'text']),
    status: RequestableItemStatus,
    document_id: idOf('doc').nullable(),
    extracted_data: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'Set once extraction finished.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  'RequestableItem',
);

/** Reviewer assignment states (not shown by the spec; docs/fidelity.md). */
export const AssignmentStatus = z.enum(['pending', 'in_progress', 'completed']);

/** A reviewer assigned to an information request (element shape chosen by bvs-mock; docs/fidelity.md). */
export const Assignment = outbound(
  z.strictObject({
    id: idOf('asg'),
    information_request_id: idOf('irq'),
    reviewer_email: z.email(),
    role: z.enum(['reviewer', 'responsible']),
    status: AssignmentStatus,
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  'Assignment',
);

/** One message of the AI analysis conversation (structure not shown; docs/fidelity.md). */
export const AnalysisMessage = outbound(
  z.strictObject({
    role: z.enum(['assistant', 'user']),
    content: z.string(),
    created_at: Timestamp,
  }),
  'AnalysisMessage',
);

/**
 * An information request as carried in events (spec §2). `responsible_comment`
 * is always present and null until the responsible reviewer submits the
 * after-evaluation form.
 */
export const InformationRequest = outbound(
  z.strictObject({
    id: idOf('irq'),
    name: z.string(),
    status: seenValues(
      ['pending', 'items_collected', 'in_review', 'evaluated'],
      'Value seen in the spec: pending; bvs-mock also sends items_collected, in_review and evaluated.',
    ),
    entity_validation_id: idOf('evl'),
    template_id: idOf('irt'),
    recipient_url: HttpUrl,
    consolidated_report_url: HttpUrl.nullable(),
    responsible_comment: z.string().nullable().openapi({
      description: 'Null until the responsible reviewer submits the after-evaluation form.',
    }),
    requestable_items: z.array(RequestableItem),
    data_source_run_batch: DataSourceRunBatch,
    assignments: z.array(Assignment),
    information_sheet: z.record(z.string(), z.unknown()).nullable().openapi({
      description: 'Structure not shown by the spec: bvs-mock sends an object of extracted fields, or null before analysis.',
    }),
    analysis_chat: z.array(AnalysisMessage),
    webhook: LegacyWebhook.nullable().openapi({ description: 'Legacy model: the webhook_url echo, or null.' }),
  }),
  'InformationRequest',
);

export type InformationRequest = z.infer<typeof InformationRequest>;
export type RequestableItem = z.infer<typeof RequestableItem>;
export type Assignment = z.infer<typeof Assignment>;

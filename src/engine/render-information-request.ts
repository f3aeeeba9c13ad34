import type { Assignment, InformationRequest, RequestableItem } from '../schemas';
import { OrganizationState } from './organization-state';
import { renderBatch } from './render-batch';
import type { AssignmentRecord, InformationRequestRecord, RequestableItemRecord } from './records';

const { must } = OrganizationState;

/** A requestable item (element shape: docs/fidelity.md row 7). */
export function renderRequestableItem(item: RequestableItemRecord): RequestableItem {
  return {
    id: item.id,
    information_request_id: item.informationRequestId,
    name: item.name,
    kind: item.kind,
    status: item.status,
    document_id: item.documentId,
    extracted_data: item.extractedData === null ? null : structuredClone(item.extractedData),
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}

/** A reviewer assignment (element shape: docs/fidelity.md row 7). */
export function renderAssignment(assignment: AssignmentRecord): Assignment {
  return {
    id: assignment.id,
    information_request_id: assignment.informationRequestId,
    reviewer_email: assignment.reviewerEmail,
    role: assignment.role,
    status: assignment.status,
    created_at: assignment.createdAt,
    updated_at: assignment.updatedAt,
  };
}

/** An information request as its events carry it (spec §2); read at `readAt`, with its expired URLs signed anew. */
export function renderInformationRequest(state: OrganizationState, request: InformationRequestRecord, readAt?: number): InformationRequest {
  return {
    id: request.id,
    name: request.name,
    status: request.status,
    entity_validation_id: request.validationId,
    template_id: request.templateId,
    recipient_url: request.recipientUrl,
    consolidated_report_url: request.consolidatedReport === null ? null : state.signedUrl(request.consolidatedReport, undefined, readAt),
    responsible_comment: request.responsibleComment,
    requestable_items: request.itemIds.map((id) => renderRequestableItem(must(state.requestableItems, id))),
    data_source_run_batch: renderBatch(state, must(state.batches, request.batchId), undefined, readAt),
    assignments: request.assignmentIds.map((id) => renderAssignment(must(state.assignments, id))),
    information_sheet: request.informationSheet === null ? null : structuredClone(request.informationSheet),
    analysis_chat: request.analysisChat.map((message) => ({ ...message })),
    webhook: request.webhook === null ? null : { ...request.webhook },
  };
}

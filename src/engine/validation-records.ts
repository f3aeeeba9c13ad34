import type { EntityValidationCreateFields, LegacyWebhook, ScenarioEntity, ScenarioPartner } from '../schemas';
import type { EngineContext } from './engine-context';
import type { OrganizationState } from './organization-state';
import type { BatchRecord, ValidationRecord } from './records';

function displayName(script: { name: string; surname: string; display_name?: string | undefined }): string {
  return script.display_name ?? [script.name, script.surname].filter((part) => part !== '').join(' ');
}

/** Options of {@link createRootValidation}. */
export interface RootValidationInput {
  organizationId: string;
  request: EntityValidationCreateFields;
  script: ScenarioEntity;
}

/**
 * The validation a create call makes: the TIN and country of the request, the
 * identity of the scenario's main entity, and the legacy `webhook` echo when a
 * `webhook_url` was given (spec §4, §6 Legacy model).
 */
export function createRootValidation(ctx: EngineContext, state: OrganizationState, input: RootValidationInput): ValidationRecord {
  const id = ctx.ids.next('evl');
  const createdAt = ctx.clock.iso();
  const webhook: LegacyWebhook | null =
    input.request.webhook_url === undefined ? null : { id: ctx.ids.next('wbh'), webhook_url: input.request.webhook_url, created_at: createdAt };
  const validation: ValidationRecord = {
    id,
    organizationId: input.organizationId,
    tin: input.request.tin,
    country: input.request.country,
    category: input.script.category,
    name: input.script.name,
    surname: input.script.surname,
    displayName: displayName(input.script),
    riskLevel: null,
    createdAt,
    batchIds: [],
    relatedEntityIds: [],
    informationRequestIds: [],
    webhook,
    rootId: id,
    partnersByTin: new Map(),
    childBatchesReadyFired: false,
  };
  state.validations.set(id, validation);
  return validation;
}

/** Options of {@link createPartnerValidation}. */
export interface PartnerValidationInput {
  parent: ValidationRecord;
  /** The identity: a scenario partner, or a stakeholder added through the API. */
  script: Pick<ScenarioPartner, 'tin' | 'country' | 'category' | 'name' | 'surname' | 'display_name' | 'risk_level'>;
  /** Country of a partner that names none: the main entity's. */
  defaultCountry: string;
}

/** A related entity's own validation (spec §2: `evl_` ids are used for related entities too). */
export function createPartnerValidation(ctx: EngineContext, state: OrganizationState, input: PartnerValidationInput): ValidationRecord {
  const id = ctx.ids.next('evl');
  const { script } = input;
  const validation: ValidationRecord = {
    id,
    organizationId: input.parent.organizationId,
    tin: script.tin,
    country: script.country ?? input.defaultCountry,
    category: script.category,
    name: script.name,
    surname: script.surname,
    displayName: displayName(script),
    riskLevel: script.risk_level,
    createdAt: ctx.clock.iso(),
    batchIds: [],
    relatedEntityIds: [],
    informationRequestIds: [],
    webhook: null,
    rootId: input.parent.rootId,
    partnersByTin: new Map(),
    childBatchesReadyFired: false,
  };
  state.validations.set(id, validation);
  return validation;
}

/** A new batch of a validation: the main one (`parent` null, `direct`) or a partner's under its parent's (`related`), stored. */
export function createBatchRecord(
  ctx: EngineContext,
  state: OrganizationState,
  { validation, parent, informationRequestId }: { validation: ValidationRecord; parent: BatchRecord | null; informationRequestId: string | null },
): BatchRecord {
  const now = ctx.clock.iso();
  const batch: BatchRecord = {
    id: ctx.ids.next('dsrb'),
    validationId: validation.id,
    tin: validation.tin,
    informationRequestId,
    parentBatchId: parent?.id ?? null,
    executionType: parent === null ? 'direct' : 'related',
    createdAt: now,
    updatedAt: now,
    consolidatedReport: null,
    reportGeneratedAt: null,
    runIds: [],
    alertIds: [],
    childBatchIds: [],
    runsSucceeded: false,
    webhook: parent === null ? validation.webhook : null,
  };
  state.batches.set(batch.id, batch);
  return batch;
}

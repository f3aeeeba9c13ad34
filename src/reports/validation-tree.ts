import type { DataSourceRunBatch, EntityValidation, RelatedEntity } from '../schemas';

/** One batch of a validation tree, in report order, with what the report prints about its entity. */
export interface ValidationTreeNode {
  batch: DataSourceRunBatch;
  /** `null` for the main batch; `1`, `2`, `2.1` ... for partners, numbered by position under their parent. */
  label: string | null;
  /** 0 for the main batch, 1 for its partners, 2 for partners of partners. */
  depth: number;
  /** The partner's full identity, or null when `related_entities` does not list it (and for the main batch). */
  identity: RelatedEntity | null;
}

/**
 * The main batch and every child batch below it, depth first, so a partner's
 * own partners follow it in the report. A child batch carries the partner's
 * `tin` only; its full identity is read from the entity validation's
 * `related_entities` by `entity_validation_id` (spec §6 rule 4).
 */
export function flattenValidationTree(validation: EntityValidation, batch: DataSourceRunBatch): ValidationTreeNode[] {
  const identities = new Map(validation.related_entities.map((entity) => [entity.id, entity]));
  const nodes: ValidationTreeNode[] = [{ batch, label: null, depth: 0, identity: null }];
  const visit = (parent: DataSourceRunBatch, prefix: string, depth: number): void => {
    parent.child_batches.forEach((child, index) => {
      const label = `${prefix}${index + 1}`;
      nodes.push({ batch: child, label, depth, identity: identities.get(child.entity_validation_id) ?? null });
      visit(child, `${label}.`, depth + 1);
    });
  };
  visit(batch, '', 1);
  return nodes;
}

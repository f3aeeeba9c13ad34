import type { EngineEvent } from '../../src/engine';

/** Every `evl_` id a value names, at any depth. */
function namedValidations(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (/^evl_\w+$/.test(value)) found.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) namedValidations(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) namedValidations(item, found);
  }
  return found;
}

/**
 * The events, in emission order, that name an entity validation no earlier `stakeholder.created` announced
 * (in its `stakeholder.related_entities`): `"<n> <type>: <evl_ id>"`, one line per such id. The validations
 * created through the API (the events' `validationId`) are known from the start. A `stakeholder.created`
 * announces its related entities with itself, so what it names of them counts as announced.
 */
export function unannounced(events: readonly EngineEvent[]): string[] {
  const known = new Set(events.map((event) => event.validationId));
  const problems: string[] = [];
  events.forEach((event, index) => {
    if (event.type === 'entity_validation.stakeholder.created') {
      const { stakeholder } = event.body as { stakeholder: { related_entities: Array<{ id: string }> } };
      for (const entity of stakeholder.related_entities) known.add(entity.id);
    }
    for (const id of namedValidations(event.body)) if (!known.has(id)) problems.push(`${index} ${event.type}: ${id}`);
  });
  return problems;
}

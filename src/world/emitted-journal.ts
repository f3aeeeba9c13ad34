import type { EngineEvent } from '../engine';
import type { EmittedEvent } from '../schemas';

/** An event as `GET /_mock/emitted` lists it; its schema: src/schemas/delivery-answers.ts. */
export type { EmittedEvent };

/** Events kept by default: enough for a test's trees, bounded for a mock left running (docs/fidelity.md row 85). */
const DEFAULT_MAX_EMITTED = 10_000;

/**
 * The events the engine emitted since the last reset, newest kept, whether or not any endpoint
 * received them: what `waitForEvent` of bvs-mock/testing watches. It keeps no bodies, so it costs no
 * rendering.
 */
export class EmittedJournal {
  private readonly ring: EmittedEvent[] = [];
  private recorded = 0;

  constructor(private readonly capacity = DEFAULT_MAX_EMITTED) {}

  /** The engine sink (subscribe it with `readsBodyAtOnce: true`: it never reads the body). */
  readonly record = (event: EngineEvent): void => {
    this.ring[this.recorded % this.capacity] = {
      sequence: event.sequence,
      type: event.type,
      organization_id: event.organizationId,
      entity_validation_id: event.validationId,
      resource_id: event.resourceId,
      emitted_at: event.emittedAt,
    };
    this.recorded += 1;
  };

  /**
   * Events after sequence `after` (oldest first) that match, at most `limit` and while `fits` takes them (the
   * page's byte budget), and whether more remain.
   */
  list(filter: { after?: number; type?: string; validationId?: string; organizationId?: string; limit: number; fits?: (event: EmittedEvent) => boolean }): {
    events: EmittedEvent[];
    more: boolean;
  } {
    const events: EmittedEvent[] = [];
    for (let position = Math.max(0, this.recorded - this.capacity); position < this.recorded; position += 1) {
      const event = this.ring[position % this.capacity]!;
      if (filter.after !== undefined && event.sequence <= filter.after) continue;
      if (filter.type !== undefined && event.type !== filter.type) continue;
      if (filter.validationId !== undefined && event.entity_validation_id !== filter.validationId) continue;
      if (filter.organizationId !== undefined && event.organization_id !== filter.organizationId) continue;
      if (events.length === filter.limit || filter.fits?.(event) === false) return { events, more: true };
      events.push(event);
    }
    return { events, more: false };
  }

  /** The events kept, oldest first, as plain data (a world's snapshot). */
  snapshot(): EmittedEvent[] {
    const events: EmittedEvent[] = [];
    for (let position = Math.max(0, this.recorded - this.capacity); position < this.recorded; position += 1) events.push(this.ring[position % this.capacity]!);
    return events;
  }

  /** Takes what a snapshot kept, into this new journal. */
  restore(events: readonly EmittedEvent[]): void {
    for (const event of events.slice(-this.capacity)) this.ring[this.recorded++ % this.capacity] = event;
  }

  clear(): void {
    this.ring.length = 0;
    this.recorded = 0;
  }
}

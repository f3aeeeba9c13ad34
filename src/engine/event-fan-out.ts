import type { SimulatedClock } from '../clock';
import type { WebhookEvent } from '../schemas';
import { EVENT_RESOURCE_KEYS } from '../schemas';
import type { EmitInput } from './engine-context';
import type { EngineEvent, EventSink } from './engine-event';
import type { OrganizationState } from './organization-state';

/**
 * The engine's events on their way out: each emission is numbered in order, stamped with the simulated
 * time, and handed to every subscribed sink while it happens. A body is rendered once, at the emission,
 * and only when some sink may read it.
 */
export class EventFanOut {
  /** Sinks, and whether each needs the body rendered at emission (it may read it later). */
  private readonly sinks = new Map<EventSink, boolean>();
  private eagerSinks = 0;
  private sequence = 0;

  constructor(private readonly clock: SimulatedClock) {}

  /** Numbers the event, and hands it to every sink now. */
  emit(state: OrganizationState, input: EmitInput): void {
    this.sequence += 1;
    let body: WebhookEvent | undefined;
    const key = EVENT_RESOURCE_KEYS[input.type];
    const event: EngineEvent = {
      sequence: this.sequence,
      organizationId: state.id,
      type: input.type,
      // Rendered on first read, which sinks do during the emission: a snapshot of this instant,
      // and no rendering at all for an event nobody receives.
      get body() {
        return (body ??= { type: input.type, [key]: input.resource() } as WebhookEvent);
      },
      validationId: input.validationId,
      resourceId: input.resourceId,
      legacyWebhookUrl: input.legacyWebhookUrl,
      emittedAt: this.clock.iso(),
    };
    // A sink that did not promise to read the body right away gets it rendered now, before state moves on.
    if (this.eagerSinks > 0) void event.body;
    for (const sink of this.sinks.keys()) sink(event);
  }

  /**
   * Adds a sink for every event from now on; returns a function that removes it.
   * With `{ readsBodyAtOnce: true }` the sink promises to read `event.body` only
   * while it is called (or not at all), so bodies nobody needs are never rendered.
   */
  subscribe(sink: EventSink, options: { readsBodyAtOnce?: boolean } = {}): () => void {
    if (this.sinks.has(sink)) return () => this.unsubscribe(sink);
    const eager = options.readsBodyAtOnce !== true;
    this.sinks.set(sink, eager);
    if (eager) this.eagerSinks += 1;
    return () => this.unsubscribe(sink);
  }

  private unsubscribe(sink: EventSink): void {
    if (this.sinks.get(sink) === true) this.eagerSinks -= 1;
    this.sinks.delete(sink);
  }

  /** The number of the last event emitted (a world's snapshot). */
  get lastSequence(): number {
    return this.sequence;
  }

  /** Goes on numbering after `sequence` (a world restored from a snapshot). */
  restoreSequence(sequence: number): void {
    this.sequence = sequence;
  }

  /** Starts sequence numbers over from 1; the sinks stay subscribed. */
  reset(): void {
    this.sequence = 0;
  }
}

import type { DeliveryEvent } from '../../src/schemas/delivery';
import type { EmittedEvent } from '../../src/schemas/delivery-answers';
import { Badge, Instant, offset } from '../components';
import { linkTo } from '../hash-route';

/** The resource family of an event type: one lane of the timeline each. */
const LANES = ['entity_validation', 'data_source_run_batch', 'information_request'] as const;

/**
 * A tree's events on the simulated clock: one lane per resource family, a mark per event at its instant,
 * and below, every event in emission order with its offset from the validation's creation and what
 * became of its deliveries, which is where the order rules of spec §6 show.
 */
export function Timeline({ start, events, deliveries }: { start: string; events: EmittedEvent[]; deliveries: DeliveryEvent[] }) {
  if (events.length === 0) return <p class="muted">No event yet: they appear as the tree plays (move the clock on the Clock view).</p>;
  const from = Date.parse(start);
  const to = Math.max(from + 1000, ...events.map((event) => Date.parse(event.emitted_at)));
  const place = (at: string) => ((Date.parse(at) - from) / (to - from)) * 100;
  // Marks at one instant are stacked, not drawn over each other.
  const stacked = new Map<string, number>();
  const deliveriesOf = (event: EmittedEvent) =>
    deliveries.filter((record) => record.type === event.type && record.resource_id === event.resource_id && record.created_at === event.emitted_at);
  return (
    <div class="timeline">
      <div class="lanes">
        {LANES.map((lane) => (
          <div key={lane} class="lane">
            <span class="lane-name mono">{lane}</span>
            <div class="lane-track">
              {events
                .filter((event) => event.type.startsWith(`${lane}.`))
                .map((event) => {
                  const key = `${lane}@${event.emitted_at}`;
                  const depth = stacked.get(key) ?? 0;
                  stacked.set(key, depth + 1);
                  return (
                    <span
                      key={event.sequence}
                      class={`mark mark-${lane}`}
                      style={{ left: `${place(event.emitted_at)}%`, top: `${4 + (depth % 4) * 6}px` }}
                      title={`#${event.sequence} ${event.type} ${offset(start, event.emitted_at)}`}
                      onClick={() => document.getElementById(`seq-${event.sequence}`)?.scrollIntoView({ block: 'center' })}
                    />
                  );
                })}
            </div>
          </div>
        ))}
        <div class="axis">
          <span>
            <Instant at={start} />
          </span>
          <span>{offset(start, new Date(to).toISOString())}</span>
        </div>
      </div>
      <table class="table compact" data-testid="timeline">
        <thead>
          <tr>
            <th>#</th>
            <th>When</th>
            <th>Event</th>
            <th>Resource</th>
            <th>Deliveries</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.sequence} id={`seq-${event.sequence}`}>
              <td class="muted">{event.sequence}</td>
              <td title={event.emitted_at}>{offset(start, event.emitted_at)}</td>
              <td class="mono event-type">
                <span class={`dot mark-${event.type.split('.')[0]}`} /> {event.type}
              </td>
              <td class="mono">{event.resource_id}</td>
              <td>
                {deliveriesOf(event).map((record) => (
                  <a key={record.id} href={linkTo('events', { validation: event.entity_validation_id, event: record.id })} title={record.url}>
                    <Badge value={record.status} />
                  </a>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

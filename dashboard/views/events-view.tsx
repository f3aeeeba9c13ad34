import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { ControlQuery } from '../../src/client/control-contract';
import { EVENT_TYPES } from '../../src/schemas/event-type-names';
import { useControl } from '../api';
import { Badge, ErrorNote, FilterInput, Instant, Json, Loading, Panel, offset } from '../components';
import { go, linkTo } from '../hash-route';
import { useLoad } from '../use-load';

/** Rows on a page: a screenful; 20,000 records are paged, never drawn at once. */
const EVENTS_PAGE_SIZE = 50;

type EventQuery = ControlQuery<'control.events.list'>;

/** The filters a link may carry (`#/events?status=failed&type=...`). */
export type EventFilters = Partial<Record<'type' | 'status' | 'validation' | 'endpoint' | 'label' | 'cursor' | 'event', string>>;

/**
 * The delivery history (spec §5.5, §6 Retries): newest first, filtered by type, status, validation,
 * endpoint and label (the test that created the validation, on a shared instance), a page at a time; a record opens with every attempt and the envelope sent, and can be redelivered.
 */
export function EventsView({ filters }: { filters: EventFilters }) {
  const control = useControl();
  // The filters of a link are taken as they come: a type or status bvs-mock does not know is its to refuse (422).
  const query: EventQuery = {
    order: 'newest',
    limit: EVENTS_PAGE_SIZE,
    type: filters.type as EventQuery['type'],
    status: filters.status as EventQuery['status'],
    entity_validation_id: filters.validation,
    endpoint_id: filters.endpoint,
    label: filters.label,
    cursor: filters.cursor,
  };
  const page = useLoad(() => control.call('control.events.list', { query }), JSON.stringify(query));
  const endpoints = useLoad(() => control.call('control.webhook_endpoints.list'), '');
  // Cursors of the newer pages visited, so "Newer" goes back without a cursor of its own in the API.
  const [newer, setNewer] = useState<Array<string | undefined>>([]);
  const set = (patch: EventFilters) => {
    setNewer([]);
    go('events', { ...filters, cursor: undefined, event: undefined, ...patch });
  };
  const endpointName = (id: string | null) => endpoints.data?.webhook_endpoints.find((endpoint) => endpoint.id === id)?.name ?? id ?? 'legacy webhook_url';

  return (
    <div class={`split ${filters.event === undefined ? '' : 'with-side'}`}>
      <div class="split-main">
        <Panel title="Delivery events" actions={page.data === undefined ? null : <Counts counts={page.data.counts} onPick={(status) => set({ status })} />}>
          <div class="filters">
            <select aria-label="Type" value={filters.type ?? ''} onChange={(event) => set({ type: event.currentTarget.value })}>
              <option value="">every type</option>
              {EVENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
            <select aria-label="Status" value={filters.status ?? ''} onChange={(event) => set({ status: event.currentTarget.value })}>
              <option value="">every status</option>
              {['pending', 'succeeded', 'failed', 'expired'].map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
            <select aria-label="Endpoint" value={filters.endpoint ?? ''} onChange={(event) => set({ endpoint: event.currentTarget.value })}>
              <option value="">every endpoint</option>
              {(endpoints.data?.webhook_endpoints ?? []).map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpoint.name}
                </option>
              ))}
            </select>
            <FilterInput label="Validation" placeholder="evl_… validation" value={filters.validation ?? ''} onCommit={(validation) => set({ validation })} />
            <FilterInput label="Label" placeholder="label (test name)" value={filters.label ?? ''} onCommit={(label) => set({ label: label || undefined })} />
          </div>
          <ErrorNote error={page.error} />
          {page.data === undefined ? (
            <Loading />
          ) : page.data.events.length === 0 ? (
            <p class="muted">No delivery matches. Deliveries appear here as events are emitted to endpoints (or legacy webhook_urls).</p>
          ) : (
            <table class="table rows-clickable" data-testid="events">
              <thead>
                <tr>
                  <th>Created (simulated)</th>
                  <th>Type</th>
                  <th class="wide-only">Resource</th>
                  <th class="wide-only">Endpoint</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th class="wide-only">Last answer</th>
                </tr>
              </thead>
              <tbody>
                {page.data.events.map((event) => {
                  const last = event.attempts.at(-1);
                  return (
                    <tr
                      key={event.id}
                      class={event.id === filters.event ? 'selected' : ''}
                      data-event={event.id}
                      onClick={() => go('events', { ...filters, event: event.id })}
                    >
                      <td>
                        <Instant at={event.created_at} />
                      </td>
                      <td class="mono">{event.type}</td>
                      <td class="mono wide-only">{event.resource_id}</td>
                      <td class="wide-only">{endpointName(event.endpoint_id)}</td>
                      <td>
                        <Badge value={event.status} />
                      </td>
                      <td>{event.attempts.length}</td>
                      <td class="wide-only">{last === undefined ? <span class="muted">—</span> : (last.response_code ?? last.error)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <div class="pager">
            <button type="button" disabled={filters.cursor === undefined} onClick={() => go('events', { ...filters, cursor: undefined, event: undefined })}>
              Newest
            </button>
            <button
              type="button"
              disabled={filters.cursor === undefined}
              onClick={() => {
                const back = newer.slice(0, -1);
                setNewer(back);
                go('events', { ...filters, cursor: newer.at(-1), event: undefined });
              }}
            >
              ← Newer
            </button>
            <button
              type="button"
              disabled={!page.data?.next_cursor}
              onClick={() => {
                setNewer([...newer, filters.cursor]);
                go('events', { ...filters, cursor: page.data!.next_cursor!, event: undefined });
              }}
            >
              Older →
            </button>
          </div>
        </Panel>
      </div>
      {filters.event === undefined ? null : (
        <div class="split-side">
          <EventDetail id={filters.event} endpointName={endpointName} onClose={() => go('events', { ...filters, event: undefined })} />
        </div>
      )}
    </div>
  );
}

/** Delivery records by status, each a filter. */
function Counts({ counts, onPick }: { counts: Record<string, number>; onPick: (status: string) => void }) {
  return (
    <span class="counts">
      {Object.entries(counts).map(([status, count]) => (
        <button type="button" key={status} class="link" onClick={() => onPick(status)} title={`Only ${status}`}>
          <Badge value={status} /> {count.toLocaleString('en')}
        </button>
      ))}
    </span>
  );
}

/** One delivery record: its attempts, the envelope sent, and redelivery. */
function EventDetail({ id, endpointName, onClose }: { id: string; endpointName: (id: string | null) => string; onClose: () => void }) {
  const control = useControl();
  const record = useLoad(() => control.call('control.events.get', { params: { id } }), id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>(undefined);
  const redeliver = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await control.call('control.events.redeliver', { params: { id }, body: {} });
      record.reload();
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setBusy(false);
    }
  };
  const event = record.data;
  return (
    <Panel
      title={<span class="mono">{id}</span>}
      actions={
        <>
          <button type="button" class="primary small" disabled={busy || event === undefined} onClick={() => void redeliver()}>
            {busy ? 'Redelivering…' : 'Redeliver'}
          </button>
          <button type="button" class="small" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </>
      }
    >
      <ErrorNote error={record.error ?? error} />
      {event === undefined ? (
        <Loading />
      ) : (
        <div class="stack" data-testid="event-detail">
          <dl class="facts">
            <dt>Type</dt>
            <dd class="mono">{event.type}</dd>
            <dt>Status</dt>
            <dd>
              <Badge value={event.status} />
              {event.reason === null ? null : <span class="muted mono"> {event.reason}</span>}
              {event.next_attempt_at === null ? null : (
                <span class="muted">
                  {' '}
                  next attempt <Instant at={event.next_attempt_at} />
                </span>
              )}
            </dd>
            <dt>Endpoint</dt>
            <dd>
              {endpointName(event.endpoint_id)} <span class="muted mono">{event.url}</span> ({event.auth_type})
            </dd>
            <dt>Validation</dt>
            <dd>
              <a class="mono" href={linkTo('validations', { id: event.entity_validation_id })}>
                {event.entity_validation_id}
              </a>
            </dd>
            <dt>Resource</dt>
            <dd class="mono">{event.resource_id}</dd>
          </dl>
          <h3>Attempts</h3>
          {event.attempts.length === 0 ? (
            <p class="muted">No attempt yet.</p>
          ) : (
            <table class="table compact" data-testid="attempts">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Trigger</th>
                  <th title="Simulated time since the event was created">Simulated</th>
                  <th title="Wall-clock time (UTC) the attempt ended">Real</th>
                  <th>Answer</th>
                  <th>Duration</th>
                </tr>
              </thead>
              <tbody>
                {event.attempts.map((attempt) => (
                  <Fragment key={attempt.number}>
                    <tr>
                      <td>{attempt.number}</td>
                      <td>{attempt.trigger}</td>
                      <td title={attempt.at}>{offset(event.created_at, attempt.at)}</td>
                      <td title={attempt.real_at}>{attempt.real_at.slice(11, 19)}</td>
                      <td>
                        {attempt.response_code === null ? (
                          <Badge value={attempt.error ?? 'no answer'} title="No answer came" />
                        ) : (
                          <Badge value={String(attempt.response_code)} title={attempt.error ?? undefined} />
                        )}
                      </td>
                      <td>{attempt.duration_ms.toFixed(1)} ms</td>
                    </tr>
                    {attempt.response_body === '' && attempt.error === null && attempt.request_headers === undefined ? null : (
                      <tr class="sub">
                        <td />
                        <td colSpan={5}>
                          {attempt.request_headers === undefined ? null : <SentHeaders headers={attempt.request_headers} />}
                          {attempt.error === null || attempt.response_code === null ? null : <div class="bad-text">{attempt.error}</div>}
                          {attempt.response_body === '' ? null : <pre class="json excerpt">{attempt.response_body}</pre>}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          )}
          <h3>Envelope sent</h3>
          <Json value={event.payload} />
        </div>
      )}
    </Panel>
  );
}

/**
 * The request headers an attempt sent, folded; the authorization (its secret masked to the last 4 characters) shows
 * unfolded, so a receiver's 401 after a secret was rotated reads at a glance.
 */
function SentHeaders({ headers }: { headers: Readonly<Record<string, string>> }) {
  return (
    <details class="sent-headers" data-testid="request-headers">
      <summary>
        Request headers
        {headers.authorization === undefined ? (
          ' (no authorization)'
        ) : (
          <>
            {' '}
            · authorization <code>{headers.authorization}</code>
          </>
        )}
      </summary>
      <pre class="excerpt">
        {Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}
      </pre>
    </details>
  );
}

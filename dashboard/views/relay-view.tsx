import type { RelayReport } from '../../src/schemas/relay-answers';
import { ControlApiError } from '../api';
import { Badge, ErrorNote, Instant, Loading, Panel, Tile } from '../components';
import { useLoad } from '../use-load';

/** The relay's report; not an operation of serve's control API, so the typed client does not know it (openapi/tools.yaml does). */
const RELAY_PATH = '/_mock/relay';

/** Deliveries listed at most, the newest first: the relay keeps up to 10,000, which `GET /_mock/relay` answers whole. */
const LISTED = 200;

/** Reads `GET /_mock/relay` with the control token; a 401 asks for the token, as the control client's refusals do. */
async function readRelay(token: string, onLocked: () => void): Promise<RelayReport> {
  const response = await fetch(RELAY_PATH, { cache: 'no-store', headers: token === '' ? {} : { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401) onLocked();
    // The relay refuses in plain text: its sentence is what a person reads.
    throw new ControlApiError(response.status, { error: { code: 'error', message: text } }, `GET ${RELAY_PATH}`);
  }
  return JSON.parse(text) as RelayReport;
}

/**
 * What `bvs-mock listen` relayed (`GET /_mock/relay`): the findings first (envelope, authorization, and the order and
 * gating rules of spec §6, each with the rule and the deliveries involved), then the deliveries with the receiver's
 * answer, as passed back to the service.
 */
export function RelayView({ token, onLocked }: { token: string; onLocked: () => void }) {
  const relay = useLoad(() => readRelay(token, onLocked), token);
  const data = relay.data;
  return (
    <div class="stack" data-testid="relay">
      <ErrorNote error={relay.error} />
      {data === undefined ? (
        <Loading />
      ) : (
        <>
          <div class="tiles">
            <Tile label="Deliveries relayed" value={String(data.deliveries.length)} />
            <Tile label="Findings" value={String(data.findings.length)} bad={data.findings.length > 0} />
            <div class="tile">
              <span class="tile-label">Forwarded to</span>
              <span class="mono">{data.forward_to}</span>
            </div>
          </div>
          <Panel title={`Findings (${data.findings.length})`}>
            {data.findings.length === 0 ? (
              <p class="muted">No delivery broke a rule so far.</p>
            ) : (
              <table class="table compact" data-testid="findings">
                <thead>
                  <tr>
                    <th>Kind</th>
                    <th>Rule</th>
                    <th>What happened</th>
                    <th>Tree</th>
                    <th>Deliveries involved</th>
                  </tr>
                </thead>
                <tbody>
                  {data.findings.map((finding, index) => (
                    <tr key={index} data-finding={finding.kind}>
                      <td>
                        <Badge value={finding.kind} />
                      </td>
                      <td>{finding.rule}</td>
                      <td>{finding.message}</td>
                      <td class="mono">{finding.tree_id ?? <span class="muted">—</span>}</td>
                      <td>
                        <ol class="events-involved">
                          {finding.events.map((event) => (
                            <li key={event.delivery_id} data-delivery={event.delivery_id}>
                              <span class="mono">{event.delivery_id}</span> <span class="mono">{event.event_type ?? '(no type)'}</span>{' '}
                              <span class="mono muted">{event.resource_id ?? ''}</span> <Instant at={event.arrived_at} />
                            </li>
                          ))}
                        </ol>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
          <Panel title={`Deliveries (${data.deliveries.length}${data.deliveries.length > LISTED ? `, the latest ${LISTED} listed` : ''})`}>
            {data.deliveries.length === 0 ? (
              <p class="muted">No delivery yet: point the service's webhook endpoint at this relay.</p>
            ) : (
              <table class="table compact" data-testid="deliveries">
                <thead>
                  <tr>
                    <th>Delivery</th>
                    <th>Arrived</th>
                    <th>Path</th>
                    <th>Event type</th>
                    <th>Resource</th>
                    <th>Attempt</th>
                    <th>Receiver answered</th>
                    <th>Time</th>
                  </tr>
                </thead>
                <tbody>
                  {data.deliveries
                    .slice(-LISTED)
                    .reverse()
                    .map((delivery) => (
                      <tr key={delivery.id} data-delivery={delivery.id}>
                        <td class="mono">{delivery.id}</td>
                        <td>
                          <Instant at={delivery.arrived_at} />
                        </td>
                        <td class="mono">{delivery.path}</td>
                        <td class="mono event-type">{delivery.event_type ?? <span class="muted">(no type)</span>}</td>
                        <td class="mono">{delivery.resource_id ?? <span class="muted">—</span>}</td>
                        <td>{delivery.attempt}</td>
                        <td title={delivery.answer.body_excerpt}>
                          <Badge value={delivery.answer.status === null ? (delivery.answer.error ?? 'no answer') : String(delivery.answer.status)} />
                        </td>
                        <td>{delivery.answer.duration_ms} ms</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            )}
          </Panel>
        </>
      )}
    </div>
  );
}

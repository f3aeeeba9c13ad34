import type { ControlClient } from '../../src/client/control-client';
import type { ValidationTree } from '../../src/schemas/dashboard-answers';
import type { DataSourceRunBatch } from '../../src/schemas/data-source-run-batch';
import type { DeliveryEvent } from '../../src/schemas/delivery';
import type { EmittedEvent } from '../../src/schemas/delivery-answers';
import { useControl } from '../api';
import { Badge, ErrorNote, Instant, Loading, Panel, offset } from '../components';
import { linkTo } from '../hash-route';
import { useLoad } from '../use-load';
import { Timeline } from './timeline';

/** A tree with its events, emitted and delivered. */
interface LoadedTree {
  tree: ValidationTree;
  emitted: EmittedEvent[];
  deliveries: DeliveryEvent[];
}

/** A tree's events and deliveries mostly fit one page of each (a tree emits tens of events); a page cut by its byte budget is followed. */
const TREE_EVENTS_LIMIT = 1000;

async function loadTree(control: ControlClient, id: string): Promise<LoadedTree> {
  const query = { entity_validation_id: id, limit: TREE_EVENTS_LIMIT };
  const [tree, emitted, deliveries] = await Promise.all([
    control.call('control.validations.tree', { params: { id } }),
    control.all('control.emitted', 'events', { query }),
    control.all('control.events.list', 'events', { query }),
  ]);
  return { tree, emitted, deliveries };
}

/**
 * One validation as a tree (spec §2: main entity and partners, batches with `runs_succeeded`, runs with
 * their status history, alerts, formation, information requests, the PDFs and `records_url`), beside
 * its events on the simulated clock, where the order rules of spec §6 can be checked by eye.
 */
export function ValidationTreeView({ id }: { id: string }) {
  const control = useControl();
  const loaded = useLoad(() => loadTree(control, id), id);
  if (loaded.data === undefined)
    return (
      <Panel title={<span class="mono">{id}</span>}>
        <ErrorNote error={loaded.error} />
        {loaded.error === undefined ? <Loading /> : null}
      </Panel>
    );
  const { tree, emitted, deliveries } = loaded.data;
  const main = tree.validation;
  const names = new Map([main, ...tree.related_entities].map((validation) => [validation.id, validation.display_name]));
  return (
    <div class="stack" data-testid="tree">
      <ErrorNote error={loaded.error} />
      <Panel
        title={
          <>
            {main.display_name} <Badge value={tree.settled ? 'settled' : 'running'} />
          </>
        }
      >
        <dl class="facts">
          <dt>Validation</dt>
          <dd class="mono">{main.id}</dd>
          <dt>TIN</dt>
          <dd class="mono">
            {main.tin} · {main.country} · {main.category}
          </dd>
          <dt>Created</dt>
          <dd>
            <Instant at={main.created_at} />
          </dd>
          <dt>Scenario</dt>
          <dd>{tree.scenario ?? 'generated from the TIN'}</dd>
          <dt>Deliveries</dt>
          <dd>
            <a href={linkTo('events', { validation: main.id })}>{deliveries.length} delivery records →</a>
          </dd>
        </dl>
      </Panel>
      <Panel title={`Timeline (${emitted.length} events, simulated time)`}>
        <Timeline start={main.created_at} events={emitted} deliveries={deliveries} />
      </Panel>
      <Panel title="Batches and runs">
        {main.data_source_run_batches.map((batch) => (
          <BatchNode key={batch.id} batch={batch} names={names} history={tree.run_history} start={main.created_at} />
        ))}
      </Panel>
      {tree.related_entities.length === 0 ? null : (
        <Panel title={`Related entities (${tree.related_entities.length})`}>
          <table class="table compact">
            <thead>
              <tr>
                <th>Name</th>
                <th>TIN</th>
                <th>Category</th>
                <th>Risk</th>
                <th>Id</th>
              </tr>
            </thead>
            <tbody>
              {main.related_entities.map((entity) => (
                <tr key={entity.id}>
                  <td>{entity.display_name}</td>
                  <td class="mono">{entity.tin}</td>
                  <td>{entity.category}</td>
                  <td>{entity.risk_level === null ? <span class="muted">—</span> : <Badge value={entity.risk_level} />}</td>
                  <td class="mono">{entity.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      )}
      {tree.formations.map((formation) => (
        <Panel key={formation.entity_validation_id} title={`Formation of ${names.get(formation.entity_validation_id) ?? formation.name}`}>
          <dl class="facts">
            <dt>Company</dt>
            <dd>
              {formation.name} ({formation.company_type}), {formation.stakeholders.length} stakeholders
            </dd>
            <dt>Legal report</dt>
            <dd>
              <a href={formation.legal_report_url} target="_blank" rel="noreferrer">
                PDF
              </a>
            </dd>
            <dt>Documents</dt>
            <dd>
              {formation.documents.map((document) => (
                <a key={document.id} class="chip" href={document.url} target="_blank" rel="noreferrer">
                  {document.label || document.name}
                </a>
              ))}
            </dd>
          </dl>
        </Panel>
      ))}
      {tree.information_requests.map((request) => (
        <Panel
          key={request.id}
          title={
            <>
              {request.name} <Badge value={request.status} />
            </>
          }
        >
          <dl class="facts">
            <dt>Request</dt>
            <dd class="mono">{request.id}</dd>
            <dt>Recipient page</dt>
            <dd>
              <a href={request.recipient_url} target="_blank" rel="noreferrer">
                open
              </a>
            </dd>
            {request.consolidated_report_url === null ? null : (
              <>
                <dt>Report</dt>
                <dd>
                  <a href={request.consolidated_report_url} target="_blank" rel="noreferrer">
                    PDF
                  </a>
                </dd>
              </>
            )}
            <dt>Items</dt>
            <dd>
              {request.requestable_items.map((item) => (
                <span key={item.id} class="chip">
                  {item.name} <Badge value={item.status} />
                </span>
              ))}
            </dd>
          </dl>
        </Panel>
      ))}
    </div>
  );
}

/** A batch, its runs and alerts, and its child batches nested under it (spec §2: batches are self-similar). */
function BatchNode({
  batch,
  names,
  history,
  start,
}: {
  batch: DataSourceRunBatch;
  names: Map<string, string>;
  history: ValidationTree['run_history'];
  start: string;
}) {
  return (
    <div class="batch" data-batch={batch.id}>
      <div class="batch-head">
        <strong>{names.get(batch.entity_validation_id) ?? batch.tin}</strong>
        <span class="mono muted">{batch.id}</span>
        <span class="muted">{batch.execution_type}</span>
        <span>
          runs_succeeded <Badge value={String(batch.runs_succeeded)} />
        </span>
        {batch.consolidated_report_url === null ? null : (
          <a href={batch.consolidated_report_url} target="_blank" rel="noreferrer">
            consolidated report PDF
          </a>
        )}
      </div>
      <table class="table compact">
        <tbody>
          {batch.data_source_runs.map((run) => (
            <tr key={run.id}>
              <td class="mono">{run.type}</td>
              <td>
                <Badge value={run.status} />
              </td>
              <td class="history">
                {(history[run.id] ?? []).map((change, index) => (
                  <span key={index} class="step" title={change.at}>
                    {index === 0 ? '' : '→ '}
                    {change.status} <span class="muted">{offset(start, change.at)}</span>
                  </span>
                ))}
              </td>
              <td>
                {run.status === 'succeeded' ? (
                  <a class="mono small-text" href={`/api/v2/data_source_runs/${run.id}/records`} title="records_url: an API call, answered with an API key">
                    records_url
                  </a>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {batch.raised_alerts.length === 0 ? null : (
        <div class="alerts">
          {batch.raised_alerts.map((alert) => (
            <span key={alert.id} class="chip">
              {alert.name} <Badge value={alert.severity} />
            </span>
          ))}
        </div>
      )}
      {batch.child_batches.length === 0 ? null : (
        <div class="children">
          {batch.child_batches.map((child) => (
            <BatchNode key={child.id} batch={child} names={names} history={history} start={start} />
          ))}
        </div>
      )}
    </div>
  );
}

import { useControl } from '../api';
import { Badge, ErrorNote, Instant, Loading, Panel } from '../components';
import { go } from '../hash-route';
import { useLoad } from '../use-load';
import { ValidationTreeView } from './validation-tree';

/** Validations listed on a page; 1,000 are paged, never drawn at once. */
const VALIDATIONS_PAGE_SIZE = 100;

/**
 * The validations created through the API, newest first, and the one chosen drawn as its tree beside
 * its events on the simulated timeline (`#/validations?id=evl_...`).
 */
export function ValidationsView({ params }: { params: Record<string, string> }) {
  const cursor = params.cursor;
  const control = useControl();
  const list = useLoad(() => control.call('control.validations.list', { query: { limit: VALIDATIONS_PAGE_SIZE, cursor } }), cursor ?? '');
  const pick = (id: string) => go('validations', { ...params, id });
  return (
    <div class="split split-list">
      <div class="split-narrow">
        <Panel title={list.data === undefined ? 'Validations' : `Validations (${list.data.total.toLocaleString('en')})`}>
          <ErrorNote error={list.error} />
          {list.data === undefined ? (
            <Loading />
          ) : list.data.validations.length === 0 ? (
            <p class="muted">
              None yet. Create one with the API (<code>POST /api/v2/entity_validations</code>): its tree and events appear here as they play.
            </p>
          ) : (
            <ul class="pick-list" data-testid="validations">
              {list.data.validations.map((validation) => (
                <li key={validation.id}>
                  <button
                    type="button"
                    class={validation.id === params.id ? 'selected' : ''}
                    onClick={() => pick(validation.id)}
                    data-validation={validation.id}
                  >
                    <span class="pick-title">{validation.display_name}</span>
                    <Badge value={validation.settled ? 'settled' : 'running'} />
                    <span class="pick-sub mono">
                      {validation.tin} · {validation.country} · {validation.id}
                    </span>
                    <span class="pick-sub">
                      <Instant at={validation.created_at} /> · {validation.scenario ?? 'generated'} · {validation.related_entities} related
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class="pager">
            <button type="button" disabled={cursor === undefined} onClick={() => go('validations', { id: params.id })}>
              Newest
            </button>
            <button type="button" disabled={!list.data?.next_cursor} onClick={() => go('validations', { id: params.id, cursor: list.data!.next_cursor! })}>
              Older →
            </button>
          </div>
        </Panel>
      </div>
      <div class="split-wide">
        {params.id === undefined ? (
          <Panel title="Tree and timeline">
            <p class="muted">Choose a validation to see its tree (main entity, partners, batches, runs, alerts) and its events on the simulated clock.</p>
          </Panel>
        ) : (
          <ValidationTreeView id={params.id} />
        )}
      </div>
    </div>
  );
}

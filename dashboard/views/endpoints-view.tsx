import { useState } from 'preact/hooks';
import type { WebhookEndpoint } from '../../src/schemas/webhook-endpoint';
import { EVENT_TYPES } from '../../src/schemas/event-type-names';
import { useControl } from '../api';
import { Badge, CopyButton, ErrorNote, Instant, Loading, Panel } from '../components';
import { useLoad } from '../use-load';

type AuthType = WebhookEndpoint['auth_type'];
type EventTypeName = (typeof EVENT_TYPES)[number];

interface Draft {
  name: string;
  url: string;
  auth_type: AuthType;
  enabled: boolean;
  subscribed_events: EventTypeName[];
}

const EMPTY: Draft = { name: '', url: '', auth_type: 'secret', enabled: true, subscribed_events: [...EVENT_TYPES] };

/**
 * Webhook endpoints as the service's dashboard manages them (spec §2, §5.5): list, create, edit, enable,
 * delete, and a secret generated and shown once. Enabling an OAuth endpoint before the organization has
 * OAuth is refused with the reason of spec §3, shown as bvs-mock wrote it.
 */
export function EndpointsView() {
  const control = useControl();
  const endpoints = useLoad(() => control.call('control.webhook_endpoints.list'), '');
  const [editing, setEditing] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ endpoint: string; value: string } | null>(null);
  const [error, setError] = useState<Error | undefined>(undefined);

  /** Runs a change and answers whether it was made; a refusal is shown with bvs-mock's reason. */
  const act = async (work: () => Promise<void>): Promise<boolean> => {
    setError(undefined);
    try {
      await work();
      endpoints.reload();
      return true;
    } catch (caught) {
      setError(caught as Error);
      return false;
    }
  };
  const showSecret = (answer: { webhook_endpoint: WebhookEndpoint; secret?: string }) => {
    if (answer.secret !== undefined) setSecret({ endpoint: answer.webhook_endpoint.name, value: answer.secret });
  };

  return (
    <div class="stack">
      {secret === null ? null : (
        <div class="note note-good" data-testid="secret">
          <strong>Secret of {secret.endpoint}</strong>, shown this once (spec §5.5): <code class="secret">{secret.value}</code>{' '}
          <CopyButton text={secret.value} />{' '}
          <button type="button" class="small" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorNote error={error} />
      <Panel title="Webhook endpoints">
        <ErrorNote error={endpoints.error} />
        {endpoints.data === undefined ? (
          <Loading />
        ) : endpoints.data.webhook_endpoints.length === 0 ? (
          <p class="muted">No endpoint yet: add one below, pointing at your receiver.</p>
        ) : (
          <table class="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>URL</th>
                <th>Events</th>
                <th>Auth</th>
                <th>State</th>
                <th>Updated</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {endpoints.data.webhook_endpoints.map((endpoint) =>
                editing === endpoint.id ? (
                  <tr key={endpoint.id}>
                    <td colSpan={7}>
                      <EndpointForm
                        initial={endpoint}
                        submitLabel="Save"
                        onCancel={() => setEditing(null)}
                        onSubmit={(draft) =>
                          act(async () => {
                            showSecret(await control.call('control.webhook_endpoints.update', { params: { id: endpoint.id }, body: draft }));
                            setEditing(null);
                          })
                        }
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={endpoint.id} data-endpoint={endpoint.name}>
                    <td>
                      <strong>{endpoint.name}</strong>
                      <div class="muted mono small-text">{endpoint.id}</div>
                    </td>
                    <td class="mono wrap">{endpoint.url}</td>
                    <td title={endpoint.subscribed_events.join('\n')}>
                      {endpoint.subscribed_events.length === EVENT_TYPES.length ? 'all 12' : `${endpoint.subscribed_events.length} of 12`}
                    </td>
                    <td>{endpoint.auth_type}</td>
                    <td>
                      <Badge value={endpoint.enabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td>
                      <Instant at={endpoint.updated_at} />
                    </td>
                    <td class="actions">
                      <button type="button" class="small" onClick={() => setEditing(endpoint.id)}>
                        Edit
                      </button>
                      <button
                        type="button"
                        class="small"
                        onClick={() =>
                          act(
                            async () =>
                              void (await control.call('control.webhook_endpoints.update', {
                                params: { id: endpoint.id },
                                body: { enabled: !endpoint.enabled },
                              })),
                          )
                        }
                      >
                        {endpoint.enabled ? 'Disable' : 'Enable'}
                      </button>
                      {endpoint.auth_type === 'secret' ? (
                        <button
                          type="button"
                          class="small"
                          onClick={() =>
                            act(async () => showSecret(await control.call('control.webhook_endpoints.secret', { params: { id: endpoint.id }, body: {} })))
                          }
                        >
                          New secret
                        </button>
                      ) : null}
                      <button
                        type="button"
                        class="small danger"
                        onClick={() =>
                          confirm(`Delete endpoint ${endpoint.name}? Its deliveries waiting for a retry expire.`) &&
                          act(() => control.call('control.webhook_endpoints.delete', { params: { id: endpoint.id } }))
                        }
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        )}
      </Panel>
      <Panel title="Add an endpoint">
        <EndpointForm
          initial={EMPTY}
          submitLabel="Create endpoint"
          onSubmit={(draft) => act(async () => showSecret(await control.call('control.webhook_endpoints.create', { body: draft })))}
        />
      </Panel>
    </div>
  );
}

/** The fields of an endpoint, for a new one or a change. */
function EndpointForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: Draft;
  submitLabel: string;
  /** Answers whether the change was made: a refused one keeps what was typed. */
  onSubmit: (draft: Draft) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    name: initial.name,
    url: initial.url,
    auth_type: initial.auth_type,
    enabled: initial.enabled,
    subscribed_events: [...initial.subscribed_events],
  });
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const toggle = (type: EventTypeName) =>
    set({ subscribed_events: draft.subscribed_events.includes(type) ? draft.subscribed_events.filter((t) => t !== type) : [...draft.subscribed_events, type] });
  return (
    <form
      class="form"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          if ((await onSubmit(draft)) && onCancel === undefined) setDraft({ ...EMPTY, subscribed_events: [...EVENT_TYPES] });
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="form-row">
        <label>
          Name
          <input name="name" required value={draft.name} onInput={(event) => set({ name: event.currentTarget.value })} placeholder="hooks" />
        </label>
        <label class="grow">
          URL
          <input
            name="url"
            required
            type="url"
            value={draft.url}
            onInput={(event) => set({ url: event.currentTarget.value })}
            placeholder="http://127.0.0.1:3000/webhooks"
          />
        </label>
        <label>
          Authentication
          <select name="auth_type" value={draft.auth_type} onChange={(event) => set({ auth_type: event.currentTarget.value as AuthType })}>
            <option value="none">none</option>
            <option value="secret">secret (Bearer)</option>
            <option value="oauth">OAuth (client credentials)</option>
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="enabled" checked={draft.enabled} onChange={(event) => set({ enabled: event.currentTarget.checked })} />
          Enabled
        </label>
      </div>
      <fieldset class="events-pick">
        <legend>
          Subscribed events{' '}
          <button type="button" class="link" onClick={() => set({ subscribed_events: [...EVENT_TYPES] })}>
            all
          </button>
        </legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} class="check mono small-text">
            <input type="checkbox" checked={draft.subscribed_events.includes(type)} onChange={() => toggle(type)} />
            {type}
          </label>
        ))}
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel === undefined ? null : (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

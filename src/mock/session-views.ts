import { REDACTED_SECRET } from '../api/routes/control-routes';
import type { Issue, OrganizationConfig, SessionAnswer, SessionSummary } from '../schemas';
import type { World } from '../world/world';

/** What a session's answers say of it: counts, credentials as first answered or redacted. */

export function inUse(kind: string, value: string, path: string): Issue {
  return { path, code: 'credential_in_use', message: `${kind} "${value}" is used by another session` };
}

/** What a session's summary says of its world. */
export function describeWorld(world: World): Pick<SessionSummary, 'seed' | 'clock' | 'counts'> {
  const organizations = world.registry.list();
  return {
    seed: world.seed,
    clock: world.clock.describe(),
    counts: {
      organizations: organizations.length,
      validations: world.engine.retention().validations,
      endpoints: organizations.reduce((sum, organization) => sum + world.endpoints.list(organization.id).length, 0),
      requests: world.journal.retention().entries,
      deliveries: world.deliveries.counts(),
    },
  };
}

/**
 * An organization's credentials as `GET /_mock/sessions/{id}` shows them: client ids, and `<set>` for every secret,
 * as every control answer after the one that made it (docs/fidelity.md row 115).
 */
export function redacted(organization: OrganizationConfig): SessionAnswer['organizations'][number] {
  const shown = credentialsOf(organization);
  return {
    ...shown,
    api_keys: shown.api_keys.map(() => REDACTED_SECRET),
    oauth_clients: shown.oauth_clients.map((client) => ({ ...client, client_secret: REDACTED_SECRET })),
    legacy_webhook_token: shown.legacy_webhook_token === null ? null : REDACTED_SECRET,
  };
}

/** An organization's credentials as a session's answer lists them. */
export function credentialsOf(organization: OrganizationConfig): SessionAnswer['organizations'][number] {
  return {
    id: organization.id,
    api_keys: [...organization.api_keys],
    oauth_clients: organization.oauth_clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      scopes: [...client.scopes],
    })),
    legacy_webhook_token: organization.settings.legacy_webhook_token ?? null,
  };
}

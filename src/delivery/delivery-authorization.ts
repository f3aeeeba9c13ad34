import type { OrganizationRegistry } from '../config';
import type { DeliveryRecord } from './delivery-record';
import type { OAuthTokenCache } from './oauth-token-cache';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

/** The headers that authorize a delivery, or why there are none (the attempt's error). */
export type DeliveryAuthorization = { ok: true; headers: Record<string, string> } | { ok: false; error: string };

/**
 * The `Authorization` of a delivery by its target (spec §5.5, §5.6, docs/fidelity.md row 49): a legacy
 * URL gets the organization's legacy token (none without one), an endpoint none, `Bearer <secret>` or
 * a bearer token from the organization's OAuth provider (cached, row 50).
 */
export async function deliveryAuthorization(
  record: DeliveryRecord,
  from: { endpoints: WebhookEndpointStore; registry: OrganizationRegistry; oauth: OAuthTokenCache },
): Promise<DeliveryAuthorization> {
  const { target } = record;
  if (target.model === 'legacy') {
    const token = from.registry.get(record.organizationId)?.settings.legacy_webhook_token;
    return { ok: true, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } };
  }
  const stored = from.endpoints.get(record.organizationId, target.endpointId!);
  if (!stored) return { ok: false, error: 'endpoint_deleted' };
  switch (stored.endpoint.auth_type) {
    case 'none':
      return { ok: true, headers: {} };
    case 'secret':
      return stored.secret === null ? { ok: false, error: 'endpoint_has_no_secret' } : { ok: true, headers: { authorization: `Bearer ${stored.secret}` } };
    case 'oauth': {
      const config = from.registry.get(record.organizationId)?.settings.oauth;
      if (!config) return { ok: false, error: 'oauth_not_configured: the organization has no settings.oauth' };
      const token = await from.oauth.token(record.organizationId, config);
      return token.ok ? { ok: true, headers: { authorization: `Bearer ${token.token}` } } : token;
    }
  }
}

import type { SimulatedClock } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { DeliveryRecord } from './delivery-record';
import { OAuthTokenCache } from './oauth-token-cache';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

/** The headers that authorize a delivery, or why there are none (the attempt's error). */
export type DeliveryAuthorization = { ok: true; headers: Record<string, string> } | { ok: false; error: string };

/**
 * The `Authorization` of a delivery by its target (spec §5.5, §5.6, docs/fidelity.md row 49): a legacy
 * URL gets the organization's legacy token (none without one), an endpoint none, `Bearer <secret>` or
 * a bearer token from the organization's OAuth provider (cached, row 50).
 */
async function deliveryAuthorization(
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

/** Options of {@link OutboundAuth}. */
export interface OutboundAuthOptions {
  clock: SimulatedClock;
  endpoints: WebhookEndpointStore;
  registry: OrganizationRegistry;
  /** Real milliseconds an OAuth provider has to answer (the delivery timeout). */
  timeoutMs: number;
  /** Accept the provider's self-signed certificate (`--insecure-webhook-tls`). */
  insecureTls: boolean;
}

/**
 * Outbound auth: what authorizes each delivery, with the OAuth tokens fetched for it, kept until they
 * expire on the simulated clock or the mock is reset.
 */
export class OutboundAuth {
  readonly oauth: OAuthTokenCache;

  constructor(private readonly options: OutboundAuthOptions) {
    this.oauth = new OAuthTokenCache(options.clock, { timeoutMs: options.timeoutMs, insecureTls: options.insecureTls });
  }

  /** The headers that authorize this delivery now, or why there are none. */
  authorize(record: DeliveryRecord): Promise<DeliveryAuthorization> {
    return deliveryAuthorization(record, { endpoints: this.options.endpoints, registry: this.options.registry, oauth: this.oauth });
  }

  /** Forgets every token (`POST /_mock/reset`). */
  clear(): void {
    this.oauth.clear();
  }
}

import { randomBytes } from 'node:crypto';
import type { SimulatedClock } from '../clock';
import type { IdSource } from '../engine';
import type { EventType, WebhookEndpoint, WebhookEndpointConfig } from '../schemas';

/** An endpoint as stored: the API shape plus its secret, which is never shown again after creation. */
export interface StoredEndpoint {
  endpoint: WebhookEndpoint;
  organizationId: string;
  secret: string | null;
}

/**
 * The organization-level webhook endpoints (spec §2, §6): created from the
 * configuration at start, and managed through the control API as the dashboard
 * would. `GET /api/v2/webhook_endpoints` lists them.
 */
export class WebhookEndpointStore {
  private readonly endpoints = new Map<string, StoredEndpoint>();
  private readonly withdrawnListeners: Array<(endpointId: string) => void> = [];

  constructor(
    private readonly ids: IdSource,
    private readonly clock: SimulatedClock,
  ) {}

  /** Adds an endpoint of an organization from its configuration. */
  add(organizationId: string, config: WebhookEndpointConfig): StoredEndpoint {
    const now = this.clock.iso();
    const stored: StoredEndpoint = {
      organizationId,
      secret: config.auth_type === 'secret' ? (config.secret ?? newSecret()) : null,
      endpoint: {
        id: config.id ?? this.ids.next('whe'),
        name: config.name,
        url: config.url,
        enabled: config.enabled,
        subscribed_events: [...config.subscribed_events],
        auth_type: config.auth_type,
        created_at: now,
        updated_at: now,
      },
    };
    this.endpoints.set(stored.endpoint.id, stored);
    return stored;
  }

  /** The endpoints of an organization, oldest first. */
  list(organizationId: string): StoredEndpoint[] {
    return [...this.endpoints.values()].filter((stored) => stored.organizationId === organizationId);
  }

  /** One endpoint of an organization. */
  get(organizationId: string, id: string): StoredEndpoint | undefined {
    const stored = this.endpoints.get(id);
    return stored?.organizationId === organizationId ? stored : undefined;
  }

  /**
   * The endpoints of an organization subscribed to `type` (spec §6, Subscription and delivery), enabled
   * or not: an event for a disabled endpoint is recorded as failed at once (docs/fidelity.md row 15).
   */
  subscribers(organizationId: string, type: EventType): StoredEndpoint[] {
    return this.list(organizationId).filter((stored) => stored.endpoint.subscribed_events.includes(type));
  }

  /**
   * Called with the id of an endpoint that is disabled or deleted, so what waits to reach it
   * can end (the deliveries subscribe).
   */
  onWithdrawn(listener: (endpointId: string) => void): void {
    this.withdrawnListeners.push(listener);
  }

  /** Applies a change; the caller has checked it. Disabling an endpoint withdraws it. */
  update(stored: StoredEndpoint, patch: Partial<Pick<WebhookEndpoint, 'name' | 'url' | 'enabled' | 'subscribed_events' | 'auth_type'>>): StoredEndpoint {
    Object.assign(stored.endpoint, patch, { updated_at: this.clock.iso() });
    if (stored.endpoint.auth_type !== 'secret') stored.secret = null;
    if (!stored.endpoint.enabled) this.withdrawn(stored.endpoint.id);
    return stored;
  }

  /** Gives an endpoint a new secret (the one chosen, or a generated one) and returns it: the only time it is shown (spec §5.5). */
  rotateSecret(stored: StoredEndpoint, chosen?: string): string {
    stored.secret = chosen ?? newSecret();
    stored.endpoint.updated_at = this.clock.iso();
    return stored.secret;
  }

  /** Deletes an endpoint of an organization, withdrawing it; false when there is none. */
  remove(organizationId: string, id: string): boolean {
    if (!this.get(organizationId, id)) return false;
    this.endpoints.delete(id);
    this.withdrawn(id);
    return true;
  }

  /** Forgets every endpoint (a reset: the deliveries are reset on their own). */
  /** Every endpoint with its secret, in the order they were added (a world's snapshot; shares them: copy before keeping). */
  snapshot(): StoredEndpoint[] {
    return [...this.endpoints.values()];
  }

  /** Takes what a snapshot kept, into this empty store. */
  restore(endpoints: readonly StoredEndpoint[]): void {
    for (const stored of endpoints) {
      if (typeof stored?.endpoint?.id !== 'string' || typeof stored.organizationId !== 'string')
        throw new Error('endpoints: an entry is not an endpoint with an id and an organization');
      this.endpoints.set(stored.endpoint.id, stored);
    }
  }

  clear(): void {
    this.endpoints.clear();
  }

  private withdrawn(endpointId: string): void {
    for (const listener of this.withdrawnListeners) listener(endpointId);
  }
}

/** A signing secret, shown once. Random on purpose: it is a credential, not payload. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

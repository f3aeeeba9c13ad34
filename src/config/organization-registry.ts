import { createHash, timingSafeEqual } from 'node:crypto';
import { OrganizationSettings, PARSE_OPTIONS, type BvsMockConfig, type OrganizationConfig, type Scope } from '../schemas';

/** An OAuth client and the organization it belongs to. */
export interface ClientGrant {
  organizationId: string;
  clientSecret: string;
  scopes: Scope[];
}

/**
 * The organizations of a running bvs-mock: who owns which API key and OAuth
 * client, and each organization's settings (which the control API may change).
 * Built once from the configuration; lookups are map reads on the hot path.
 */
export class OrganizationRegistry {
  private readonly organizations = new Map<string, OrganizationConfig>();
  private readonly apiKeys = new Map<string, string>();
  private readonly clients = new Map<string, ClientGrant>();
  /** The first organization of the configuration: control API calls without `organization_id` act on it. */
  readonly defaultId: string;

  constructor(private readonly config: BvsMockConfig) {
    this.load();
    this.defaultId = config.organizations[0]!.id;
  }

  /** Back to the configuration as it was read: settings changed at run time are undone (`POST /_mock/reset`). */
  reset(): void {
    this.organizations.clear();
    this.apiKeys.clear();
    this.clients.clear();
    this.load();
  }

  private load(): void {
    for (const organization of this.config.organizations) {
      this.organizations.set(organization.id, structuredClone(organization));
      for (const key of organization.api_keys) {
        // A key identifies its organization. BvsMockConfig refuses a key listed twice; a configuration built
        // by hand, without it, must not let the later organization silently take the key (docs/fidelity.md row 74).
        const owner = this.apiKeys.get(key);
        if (owner !== undefined && owner !== organization.id) {
          throw new Error(
            `bvs-mock: API key "${key}" is given to organizations ${owner} and ${organization.id}; a key identifies its organization, so give each its own`,
          );
        }
        this.apiKeys.set(key, organization.id);
      }
      for (const client of organization.oauth_clients) {
        this.clients.set(client.client_id, { organizationId: organization.id, clientSecret: client.client_secret, scopes: [...client.scopes] });
      }
    }
  }

  /** The organization owning an API key, if any. */
  /** The configuration the registry was made from (what a reset returns to). */
  get configuration(): BvsMockConfig {
    return this.config;
  }

  byApiKey(key: string): string | undefined {
    return this.apiKeys.get(key);
  }

  /**
   * The OAuth client whose id and secret these are (`POST /oauth/token`), or
   * undefined. The secret is compared in constant time, and an unknown client
   * costs the same compare, so timing tells neither the secret nor which ids exist.
   */
  authenticateClient(clientId: string, clientSecret: string): ClientGrant | undefined {
    const client = this.clients.get(clientId);
    const matches = sameSecret(clientSecret, client?.clientSecret ?? '');
    return client !== undefined && matches ? client : undefined;
  }

  /** Whether an OAuth client has this id. */
  hasClient(clientId: string): boolean {
    return this.clients.has(clientId);
  }

  /** Whether the organization exists. */
  has(id: string): boolean {
    return this.organizations.has(id);
  }

  /** An organization's configuration (settings as they stand now). */
  get(id: string): OrganizationConfig | undefined {
    return this.organizations.get(id);
  }

  /** Every organization, in configuration order. */
  list(): OrganizationConfig[] {
    return [...this.organizations.values()];
  }

  /** The settings of an organization; throws for an unknown id (callers check `has` first). */
  settings(id: string): OrganizationConfig['settings'] {
    const organization = this.organizations.get(id);
    if (!organization) throw new Error(`bvs-mock: unknown organization ${id}`);
    return organization.settings;
  }

  /**
   * Replaces some settings, as support would (docs/design.md, control API). The result
   * is checked with the same schema as the configuration file; nothing changes when it fails.
   */
  updateSettings(id: string, patch: Record<string, unknown>): ReturnType<typeof OrganizationSettings.safeParse> {
    const organization = this.organizations.get(id);
    if (!organization) throw new Error(`bvs-mock: unknown organization ${id}`);
    const result = OrganizationSettings.safeParse({ ...organization.settings, ...patch }, PARSE_OPTIONS);
    if (result.success) organization.settings = result.data;
    return result;
  }
}

/** Constant-time equality of two secrets: sha256 gives `timingSafeEqual` equal lengths, whatever the inputs. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

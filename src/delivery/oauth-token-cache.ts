import type { SimulatedClock } from '../clock';
import type { z, OrganizationOAuthConfig } from '../schemas';
import { post } from './http-post';

/** A token, or why the provider gave none. */
export type TokenResult = { ok: true; token: string } | { ok: false; error: string };

/**
 * Tokens bvs-mock fetches from a client's own OAuth provider for endpoints with
 * OAuth authentication (spec §5.5): client credentials, cached until `expires_in`
 * passes on the simulated clock, then fetched anew.
 */
export class OAuthTokenCache {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  /** Fetches under way, so deliveries that start together share one request to the provider. */
  private readonly fetching = new Map<string, Promise<TokenResult>>();
  /** How many tokens were fetched (a test reads it to prove the cache works). */
  fetches = 0;

  constructor(
    private readonly clock: SimulatedClock,
    private readonly options: { timeoutMs: number; insecureTls: boolean },
  ) {}

  /** A valid token for the organization's provider. */
  async token(organizationId: string, config: z.infer<typeof OrganizationOAuthConfig>): Promise<TokenResult> {
    const key = `${organizationId}\u0000${config.token_url}\u0000${config.client_id}`;
    const cached = this.tokens.get(key);
    if (cached && this.clock.now() < cached.expiresAt) return { ok: true, token: cached.token };
    const under = this.fetching.get(key);
    if (under) return under;
    const fetched = this.fetch(key, config).finally(() => this.fetching.delete(key));
    this.fetching.set(key, fetched);
    return fetched;
  }

  private async fetch(key: string, config: z.infer<typeof OrganizationOAuthConfig>): Promise<TokenResult> {
    this.fetches += 1;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: config.client_id, client_secret: config.client_secret });
    if (config.scope !== undefined) form.set('scope', config.scope);
    const answer = await post({
      url: config.token_url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      timeoutMs: this.options.timeoutMs,
      insecureTls: this.options.insecureTls,
    });
    // An answer that broke off after its head is no answer: its token may be cut short too.
    if (answer.status === null || answer.error !== null) return { ok: false, error: `oauth_token_unreachable: ${answer.error}` };
    if (answer.status < 200 || answer.status > 299) return { ok: false, error: `oauth_token_refused: the provider answered ${answer.status}` };
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(answer.body) as typeof parsed;
    } catch {
      return { ok: false, error: 'oauth_token_invalid: the provider did not answer JSON' };
    }
    if (typeof parsed.access_token !== 'string' || parsed.access_token === '')
      return { ok: false, error: 'oauth_token_invalid: no access_token in the answer' };
    const lifetime = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : 3600;
    this.tokens.set(key, { token: parsed.access_token, expiresAt: this.clock.now() + lifetime * 1000 });
    return { ok: true, token: parsed.access_token };
  }

  clear(): void {
    this.tokens.clear();
    this.fetches = 0;
  }
}

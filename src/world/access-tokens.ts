import { randomBytes } from 'node:crypto';
import type { Scope } from '../schemas';

/** An OAuth access token the server issued. */
export interface AccessToken {
  organizationId: string;
  clientId: string;
  scopes: Scope[];
  /** Epoch milliseconds, on the tokens' clock, at which the token stops working. */
  expiresAt: number;
}

/** Access tokens kept at most: a client that fetches a token per request must not fill memory; the oldest go first. */
export const MAX_ACCESS_TOKENS = 10_000;

/** Access tokens live 7200 seconds (spec §5.4, §8). */
const ACCESS_TOKEN_LIFETIME_S = 7200;

/**
 * Which clock access tokens live on (`--token-clock`, docs/fidelity.md row 86): `simulated` (the
 * default), so advancing the clock two hours expires them (spec §5.4), or `wall`, so a token lives two
 * real hours whatever simulated time does, for clients that cache tokens by their own clock while the
 * tests drain hours of simulated time.
 */
export type TokenClock = 'simulated' | 'wall';

/** The OAuth access tokens issued by `POST /oauth/token`, with their expiry read on `now` (the tokens' clock). */
export class AccessTokens {
  private readonly tokens = new Map<string, AccessToken>();

  /**
   * @param now the tokens' clock, epoch milliseconds: the simulated clock, or the wall clock for `tokenClock: 'wall'`.
   * @param tag put into every token, before a `.`: a session's id, which is how a session's tokens find it.
   */
  constructor(
    readonly now: () => number,
    private readonly tag?: string,
  ) {}

  /** Issues a new token. Token text is random (it is a secret, not part of any payload). */
  issue(grant: Omit<AccessToken, 'expiresAt'>): { token: string; expiresIn: number } {
    const token = `bvs_at_${this.tag === undefined ? '' : `${this.tag}.`}${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { ...grant, expiresAt: this.now() + ACCESS_TOKEN_LIFETIME_S * 1000 });
    if (this.tokens.size > MAX_ACCESS_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    return { token, expiresIn: ACCESS_TOKEN_LIFETIME_S };
  }

  /** The token's grant, or undefined for a token this server never issued. */
  get(token: string): AccessToken | undefined {
    return this.tokens.get(token);
  }

  /** Revokes one token before its expiry (the `token_revoked` fault): it is unknown from now on. */
  revoke(token: string): void {
    this.tokens.delete(token);
  }

  /** Forgets every token (control API reset). */
  /** Every token issued and not expired away, with its grant and expiry, oldest first (a world's snapshot). */
  snapshot(): Array<[string, AccessToken]> {
    return [...this.tokens];
  }

  /** Takes what a snapshot kept, into these new tokens. */
  restore(tokens: ReadonlyArray<[string, AccessToken]>): void {
    for (const [token, grant] of tokens) this.tokens.set(token, { ...grant });
  }

  clear(): void {
    this.tokens.clear();
  }
}

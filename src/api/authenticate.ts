import type { OrganizationRegistry } from '../config';
import { ALL_SCOPES, type Scope } from '../schemas';
import type { AccessTokens } from '../world/access-tokens';
import { problems } from './api-problem';

/** Who is calling: the organization and the scopes its credential carries. */
export interface Principal {
  organizationId: string;
  scopes: readonly Scope[];
  kind: 'api_key' | 'access_token';
}

/** Options of {@link authenticate}. */
export interface AuthenticateInput {
  authorization: string | undefined;
  registry: OrganizationRegistry;
  tokens: AccessTokens;
}

/**
 * Reads `Authorization: Bearer <API_KEY or ACCESS_TOKEN>` (spec §5.3, §5.4).
 * Missing, malformed, unknown and expired credentials each get their own 401.
 */
export function authenticate(input: AuthenticateInput): Principal {
  const header = input.authorization;
  if (header === undefined || header.trim() === '') throw problems.missingCredential();
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match) throw problems.malformedCredential();
  const token = match[1]!;
  const organizationId = input.registry.byApiKey(token);
  if (organizationId !== undefined) return { organizationId, scopes: ALL_SCOPES, kind: 'api_key' };
  const grant = input.tokens.get(token);
  if (!grant) throw problems.unknownCredential();
  if (input.tokens.now() >= grant.expiresAt) throw problems.expiredToken(new Date(grant.expiresAt).toISOString());
  return { organizationId: grant.organizationId, scopes: grant.scopes, kind: 'access_token' };
}

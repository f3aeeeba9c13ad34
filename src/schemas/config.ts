import { EVENT_TYPES, EventTypeName } from './event-types';
import { idOf } from './ids';
import { toJsonPath } from './parse-result';
import { HttpUrl } from './primitives';
import { ReadingsInput } from './readings';
import { ALL_SCOPES, type Scope } from './scopes';
import { WebhookAuthType } from './webhook-endpoint';
import { z } from './zod';

const ScopeName = z.enum(ALL_SCOPES as [Scope, ...Scope[]]);

/** A webhook endpoint as the configuration file declares it (docs/design.md, Configuration file). */
export const WebhookEndpointConfig = z
  .strictObject({
    id: idOf('whe').optional(),
    name: z.string().min(1),
    url: HttpUrl,
    enabled: z.boolean().default(true),
    auth_type: WebhookAuthType.default('none'),
    /** For `auth_type: secret`: the value sent as `Authorization: Bearer <secret>`. */
    secret: z.string().min(1).optional(),
    subscribed_events: z.array(EventTypeName).default([...EVENT_TYPES]),
  })
  .superRefine((endpoint, context) => {
    if (endpoint.auth_type === 'secret' && endpoint.secret === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: 'an endpoint with auth_type secret needs a secret (the value sent as Authorization: Bearer <secret>)',
      });
    }
    if (endpoint.auth_type !== 'secret' && endpoint.secret !== undefined) {
      context.addIssue({ code: 'custom', path: ['secret'], message: `a secret is only used with auth_type secret, not ${endpoint.auth_type}` });
    }
  });

/**
 * An API key as the configuration declares it. Test credentials are test credentials: any length, as
 * long as it can be sent as `Authorization: Bearer <key>` (printable ASCII, no spaces), so `key_a` is
 * fine and an empty or blank key, which no request could ever present, is refused (docs/fidelity.md row 74).
 */
export const ApiKey = z.string().superRefine((key, context) => {
  if (key.trim() === '') {
    context.addIssue({
      code: 'custom',
      input: key,
      message: `an API key must not be empty${key === '' ? '' : ' or only spaces'}; give any printable text, like key_a`,
    });
    return;
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    context.addIssue({
      code: 'custom',
      input: key,
      message: `an API key must be printable ASCII without spaces, like key_a (it is sent as Authorization: Bearer <key>), got ${JSON.stringify(key)}`,
    });
  }
});

/** An OAuth client of the organization's API (spec §5.4). */
export const OAuthClientConfig = z.strictObject({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scopes: z.array(ScopeName).default([...ALL_SCOPES]),
});

/** The organization's OAuth provider, used for endpoints with OAuth authentication (spec §5.5). */
export const OrganizationOAuthConfig = z.strictObject({
  token_url: HttpUrl,
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scope: z.string().optional(),
});

/** Settings support would change for an organization. */
export const OrganizationSettings = z.strictObject({
  /** Gates data_source_run_batch.child_batches_ready (spec §6 rule 4). */
  child_batches_ready: z.boolean().default(true),
  /** Sent as `Authorization: Bearer <token>` on legacy-model webhooks (spec §5.6). */
  legacy_webhook_token: z.string().min(1).optional(),
  oauth: OrganizationOAuthConfig.optional(),
});

/** One organization: its credentials, settings and webhook endpoints. */
export const OrganizationConfig = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'must be letters, digits, "-" or "_" (up to 64), like acme' }),
    api_keys: z.array(ApiKey).default([]),
    oauth_clients: z.array(OAuthClientConfig).default([]),
    settings: OrganizationSettings.default({ child_batches_ready: true }),
    webhook_endpoints: z.array(WebhookEndpointConfig).default([]),
  })
  .superRefine((organization, context) => {
    organization.webhook_endpoints.forEach((endpoint, index) => {
      if (endpoint.auth_type === 'oauth' && endpoint.enabled && organization.settings.oauth === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['webhook_endpoints', index, 'enabled'],
          message: 'an endpoint with OAuth authentication cannot be enabled until OAuth is configured for the organization (settings.oauth; spec §3, §7.4)',
        });
      }
    });
  });

/** The organization bvs-mock runs without a configuration file; its credentials are printed at start. */
export const DEFAULT_ORGANIZATION = {
  id: 'default',
  api_keys: ['test_key_default'],
  oauth_clients: [{ client_id: 'default_client', client_secret: 'default_secret', scopes: [...ALL_SCOPES] }],
  settings: { child_batches_ready: true, legacy_webhook_token: 'tok_legacy_default' },
  webhook_endpoints: [],
} satisfies z.input<typeof OrganizationConfig>;

/** A configuration file (YAML or JSON). Every field has a default; the first organization is the default one. */
export const BvsMockConfig = z
  .strictObject({
    organizations: z
      .array(OrganizationConfig)
      .min(1, { message: 'at least one organization is needed' })
      .default([OrganizationConfig.parse(DEFAULT_ORGANIZATION)]),
    /** Readings of the spec where it contradicts itself, by name (`bvs-mock readings`); default: bvs-mock's choice for each. */
    readings: ReadingsInput.optional(),
  })
  .superRefine((config, context) => {
    // Each value with the path that claimed it first and its organization's index: an API key or a
    // client_id identifies its organization, so a value claimed twice is refused within one and across them.
    const owners = new Map<string, { path: string; organization: number }>();
    const claim = (kind: string, value: string, path: PropertyKey[]) => {
      const key = `${kind}\u0000${value}`;
      const owner = owners.get(key);
      const organization = path[1] as number;
      if (owner === undefined) {
        owners.set(key, { path: toJsonPath(path), organization });
      } else if (kind !== 'organization id' && owner.organization === organization) {
        context.addIssue({ code: 'custom', path, message: `${kind} "${value}" is listed twice in this organization (also at ${owner.path}); list it once` });
      } else {
        context.addIssue({
          code: 'custom',
          path,
          message: `${kind} "${value}" is used twice (also at ${owner.path}); each must be unique across organizations${kind === 'organization id' ? '' : `, since it identifies its organization`}`,
        });
      }
    };
    config.organizations.forEach((organization, index) => {
      claim('organization id', organization.id, ['organizations', index, 'id']);
      organization.api_keys.forEach((key, keyIndex) => claim('API key', key, ['organizations', index, 'api_keys', keyIndex]));
      organization.oauth_clients.forEach((client, clientIndex) =>
        claim('client_id', client.client_id, ['organizations', index, 'oauth_clients', clientIndex, 'client_id']),
      );
    });
  });

export type BvsMockConfig = z.infer<typeof BvsMockConfig>;
export type OrganizationConfig = z.infer<typeof OrganizationConfig>;
export type OrganizationSettings = z.infer<typeof OrganizationSettings>;
export type WebhookEndpointConfig = z.infer<typeof WebhookEndpointConfig>;

import type { StoredEndpoint } from '../../delivery/webhook-endpoint-store';
import { FaultRequest, WebhookEndpointCreate, WebhookEndpointPatch, WebhookEndpointSecretRequest, parseWith, type WebhookEndpoint } from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { encodeCursor, readPageQuery } from '../page-query';
import { checkBody } from '../read-body';
import type { RouteContext } from '../route-context';
import type { Route } from '../router';

const control = { kind: 'control' as const };

function endpointOf(context: RouteContext): StoredEndpoint {
  const id = context.params.id!;
  const stored = context.services.endpoints.get(context.organizationId, id);
  if (!stored) throw problems.notFound('webhook endpoint', id);
  return stored;
}

/** An endpoint with OAuth authentication cannot be enabled until OAuth is configured for the organization (spec §3, §7.4). */
function checkOAuthEnabling(context: RouteContext, endpoint: Pick<WebhookEndpoint, 'enabled' | 'auth_type'>): void {
  if (endpoint.auth_type !== 'oauth' || !endpoint.enabled) return;
  if (context.services.registry.get(context.organizationId)?.settings.oauth === undefined) {
    throw problems.conflict(
      `An endpoint with OAuth authentication cannot be enabled until OAuth is configured for organization ${context.organizationId} (spec §3). Set settings.oauth with PATCH /_mock/organizations/${context.organizationId}/settings, or create the endpoint with "enabled": false.`,
    );
  }
}

/** The dashboard's delivery screens: endpoints and their secrets, delivery records, redelivery, and faults. */
export const deliveryRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/_mock/webhook_endpoints',
    operation: 'control.webhook_endpoints.list',
    access: control,
    handle: (context) => jsonResponse(200, { webhook_endpoints: context.services.endpoints.list(context.organizationId).map((stored) => stored.endpoint) }),
  },
  {
    method: 'POST',
    pattern: '/_mock/webhook_endpoints',
    operation: 'control.webhook_endpoints.create',
    access: control,
    handle(context) {
      const body = checkBody(context, (value) => parseWith(WebhookEndpointCreate, value), context.json() ?? {});
      checkOAuthEnabling(context, body);
      const stored = context.services.endpoints.add(context.organizationId, {
        name: body.name,
        url: body.url,
        enabled: body.enabled,
        auth_type: body.auth_type,
        secret: body.secret,
        subscribed_events: body.subscribed_events,
      });
      // The secret is shown once, here, and never again (spec §5.5).
      return jsonResponse(201, { webhook_endpoint: stored.endpoint, ...(stored.secret === null ? {} : { secret: stored.secret }) });
    },
  },
  {
    method: 'PATCH',
    pattern: '/_mock/webhook_endpoints/:id',
    operation: 'control.webhook_endpoints.update',
    access: control,
    handle(context) {
      const stored = endpointOf(context);
      const { organization_id: _organization, ...patch } = checkBody(context, (value) => parseWith(WebhookEndpointPatch, value), context.json() ?? {});
      checkOAuthEnabling(context, { enabled: patch.enabled ?? stored.endpoint.enabled, auth_type: patch.auth_type ?? stored.endpoint.auth_type });
      const becameSecret = patch.auth_type === 'secret' && stored.endpoint.auth_type !== 'secret';
      context.services.endpoints.update(stored, patch);
      const secret = becameSecret ? context.services.endpoints.rotateSecret(stored) : undefined;
      return jsonResponse(200, { webhook_endpoint: stored.endpoint, ...(secret === undefined ? {} : { secret }) });
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/webhook_endpoints/:id',
    operation: 'control.webhook_endpoints.delete',
    access: control,
    handle(context) {
      const stored = endpointOf(context);
      context.services.endpoints.remove(context.organizationId, stored.endpoint.id);
      return { status: 204, headers: {}, body: '' };
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/webhook_endpoints/:id/secret',
    operation: 'control.webhook_endpoints.secret',
    access: control,
    handle(context) {
      const stored = endpointOf(context);
      if (stored.endpoint.auth_type !== 'secret') {
        throw problems.conflict(
          `Endpoint ${stored.endpoint.id} uses auth_type ${stored.endpoint.auth_type}; set auth_type to secret (PATCH) to give it a secret.`,
        );
      }
      const body = checkBody(context, (value) => parseWith(WebhookEndpointSecretRequest, value), context.json() ?? {});
      return jsonResponse(201, { webhook_endpoint: stored.endpoint, secret: context.services.endpoints.rotateSecret(stored, body.secret) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/events',
    operation: 'control.events.list',
    access: control,
    handle(context) {
      const query = context.request.query;
      const value = (name: string) => query.get(name) ?? undefined;
      const page = readPageQuery(context.request);
      const { events, next } = context.services.deliveries.page({
        organizationId: context.organizationId,
        type: value('type'),
        status: value('status'),
        resourceId: value('resource_id'),
        endpointId: value('endpoint_id'),
        validationId: value('entity_validation_id'),
        after: page.after,
        limit: page.limit,
      });
      return jsonResponse(200, { events, counts: context.services.deliveries.counts(), next_cursor: encodeCursor(next) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/events/:id',
    operation: 'control.events.get',
    access: control,
    handle(context) {
      const event = context.services.deliveries.get(context.organizationId, context.params.id!);
      if (!event) throw problems.notFound('delivery event', context.params.id!);
      return jsonResponse(200, event);
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/events/:id/redeliver',
    operation: 'control.events.redeliver',
    access: control,
    holdsClock: false,
    async handle(context) {
      const event = await context.services.deliveries.redeliver(context.organizationId, context.params.id!);
      if (!event) throw problems.notFound('delivery event', context.params.id!);
      return jsonResponse(200, event);
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/faults',
    operation: 'control.faults.list',
    access: control,
    handle: (context) => jsonResponse(200, { faults: context.services.faults.list() }),
  },
  {
    method: 'POST',
    pattern: '/_mock/faults',
    operation: 'control.faults.add',
    access: control,
    handle(context) {
      const body = checkBody(context, (value) => parseWith(FaultRequest, value), context.json());
      return jsonResponse(201, context.services.faults.add(body));
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/faults',
    operation: 'control.faults.clear',
    access: control,
    handle(context) {
      context.services.faults.clear();
      return { status: 204, headers: {}, body: '' };
    },
  },
];

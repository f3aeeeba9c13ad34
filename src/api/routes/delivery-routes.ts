import type { StoredEndpoint } from '../../delivery/webhook-endpoint-store';
import {
  ActiveFault,
  ControlWebhookEndpointList,
  DeliveryEvent,
  DeliveryEventPage,
  DeliveryEventQuery,
  FaultList,
  FaultRequest,
  OrganizationOnlyRequest,
  OrganizationQuery,
  WebhookEndpointAnswer,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointSecretAnswer,
  WebhookEndpointSecretRequest,
  idOf,
  parseWith,
  z,
  type WebhookEndpoint,
} from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { PageBudget, encodeCursor, readPageQuery } from '../page-query';
import { checkBody } from '../read-body';
import type { RouteContext } from '../route-context';
import type { Route } from '../router';

const control = { kind: 'control' as const };

function endpointOf(context: RouteContext): StoredEndpoint {
  const id = context.params.id!;
  const stored = context.world.endpoints.get(context.organizationId, id);
  if (!stored) throw problems.notFound('webhook endpoint', id);
  return stored;
}

/** An endpoint with OAuth authentication cannot be enabled until OAuth is configured for the organization (spec §3, §7.4). */
function checkOAuthEnabling(context: RouteContext, endpoint: Pick<WebhookEndpoint, 'enabled' | 'auth_type'>): void {
  if (endpoint.auth_type !== 'oauth' || !endpoint.enabled) return;
  if (context.world.registry.get(context.organizationId)?.settings.oauth === undefined) {
    throw problems.conflict(
      `An endpoint with OAuth authentication cannot be enabled until OAuth is configured for organization ${context.organizationId} (spec §3). Set settings.oauth with PATCH /_mock/organizations/${context.organizationId}/settings, or create the endpoint with "enabled": false.`,
    );
  }
}

/** The dashboard's delivery screens: endpoints and their secrets, delivery records, redelivery, and faults. */
export const deliveryRoutes = [
  {
    method: 'GET',
    pattern: '/_mock/webhook_endpoints',
    operation: 'control.webhook_endpoints.list',
    access: control,
    document: {
      tags: ['Webhook endpoints'],
      summary: "The organization's webhook endpoints",
      description: 'As the dashboard lists them (spec §2, §5.5); secrets are never shown again.',
      query: OrganizationQuery,
      answer: { status: 200, description: 'The endpoints.', schema: ControlWebhookEndpointList },
    },
    handle: (context) => jsonResponse(200, { webhook_endpoints: context.world.endpoints.list(context.organizationId).map((stored) => stored.endpoint) }),
  },
  {
    method: 'POST',
    pattern: '/_mock/webhook_endpoints',
    operation: 'control.webhook_endpoints.create',
    access: control,
    document: {
      tags: ['Webhook endpoints'],
      summary: 'Create a webhook endpoint',
      description:
        'As the dashboard does (spec §5.5). With `auth_type: secret`, the secret is the one given or a generated one, shown only in this answer. An OAuth endpoint cannot be enabled before the organization has OAuth settings (spec §3).',
      body: { schema: WebhookEndpointCreate, example: { name: 'hooks', url: 'https://example.test/hooks', auth_type: 'secret' } },
      answer: { status: 201, description: 'The endpoint, and its secret when it has one.', schema: WebhookEndpointAnswer },
      errors: ['conflict'],
    },
    handle(context) {
      const body = checkBody(context, (value) => parseWith(WebhookEndpointCreate, value), context.json() ?? {});
      checkOAuthEnabling(context, body);
      const stored = context.world.endpoints.add(context.organizationId, {
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
    document: {
      tags: ['Webhook endpoints'],
      summary: 'Change a webhook endpoint',
      description: 'Name, URL, subscribed events, authentication, enabled. Switching to `auth_type: secret` generates a secret, shown only in this answer.',
      params: z.object({ id: idOf('whe') }),
      body: { schema: WebhookEndpointPatch, example: { enabled: false } },
      answer: { status: 200, description: 'The endpoint after the change.', schema: WebhookEndpointAnswer },
      errors: ['conflict'],
    },
    handle(context) {
      const stored = endpointOf(context);
      const { organization_id: _organization, ...patch } = checkBody(context, (value) => parseWith(WebhookEndpointPatch, value), context.json() ?? {});
      checkOAuthEnabling(context, { enabled: patch.enabled ?? stored.endpoint.enabled, auth_type: patch.auth_type ?? stored.endpoint.auth_type });
      const becameSecret = patch.auth_type === 'secret' && stored.endpoint.auth_type !== 'secret';
      context.world.endpoints.update(stored, patch);
      const secret = becameSecret ? context.world.endpoints.rotateSecret(stored) : undefined;
      return jsonResponse(200, { webhook_endpoint: stored.endpoint, ...(secret === undefined ? {} : { secret }) });
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/webhook_endpoints/:id',
    operation: 'control.webhook_endpoints.delete',
    access: control,
    document: {
      tags: ['Webhook endpoints'],
      summary: 'Delete a webhook endpoint',
      description: 'Its deliveries waiting for a retry expire (docs/fidelity.md row 15).',
      params: z.object({ id: idOf('whe') }),
      query: OrganizationQuery,
      answer: { status: 204, description: 'Deleted.' },
    },
    handle(context) {
      const stored = endpointOf(context);
      context.world.endpoints.remove(context.organizationId, stored.endpoint.id);
      return { status: 204, headers: {}, body: '' };
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/webhook_endpoints/:id/secret',
    operation: 'control.webhook_endpoints.secret',
    access: control,
    document: {
      tags: ['Webhook endpoints'],
      summary: "Set or generate an endpoint's secret",
      description: 'The secret given (so a receiver started elsewhere can know it in advance), or a generated one; shown only in this answer (spec §5.5).',
      params: z.object({ id: idOf('whe') }),
      body: { schema: WebhookEndpointSecretRequest, example: { secret: 'whsec_test' }, required: false },
      answer: { status: 201, description: 'The endpoint and its new secret.', schema: WebhookEndpointSecretAnswer },
      errors: ['conflict'],
    },
    handle(context) {
      const stored = endpointOf(context);
      if (stored.endpoint.auth_type !== 'secret') {
        throw problems.conflict(
          `Endpoint ${stored.endpoint.id} uses auth_type ${stored.endpoint.auth_type}; set auth_type to secret (PATCH) to give it a secret.`,
        );
      }
      const body = checkBody(context, (value) => parseWith(WebhookEndpointSecretRequest, value), context.json() ?? {});
      return jsonResponse(201, { webhook_endpoint: stored.endpoint, secret: context.world.endpoints.rotateSecret(stored, body.secret) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/events',
    operation: 'control.events.list',
    access: control,
    paced: true,
    document: {
      tags: ['Delivery events'],
      summary: 'Delivery records, with their attempts',
      description: 'Oldest first (or newest first), each with the payload sent and every attempt (status, body excerpt, duration, error), filtered and paged.',
      query: DeliveryEventQuery,
      answer: { status: 200, description: 'A page of delivery records, and the records kept by status.', schema: DeliveryEventPage },
      errors: ['validation_failed'],
    },
    handle(context) {
      const query = context.request.query;
      const value = (name: string) => query.get(name) ?? undefined;
      const page = readPageQuery(context.request);
      const order = value('order') ?? 'oldest';
      if (order !== 'oldest' && order !== 'newest')
        throw problems.validationFailed(
          [{ path: '$query.order', code: 'invalid_value', message: `must be oldest or newest, got ${JSON.stringify(order)}` }],
          'query',
        );
      const budget = new PageBudget(context.server.maxPageBytes);
      const { next } = context.world.deliveries.page({
        newestFirst: order === 'newest',
        organizationId: context.organizationId,
        type: value('type'),
        status: value('status'),
        resourceId: value('resource_id'),
        endpointId: value('endpoint_id'),
        validationId: value('entity_validation_id'),
        label: value('label'),
        after: page.after,
        limit: page.limit,
        fits: budget.fits,
      });
      return budget.answer('events', { counts: context.world.deliveries.counts(), next_cursor: encodeCursor(next) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/events/:id',
    operation: 'control.events.get',
    access: control,
    document: {
      tags: ['Delivery events'],
      summary: 'One delivery record',
      description: 'The payload sent and every attempt.',
      params: z.object({ id: idOf('evt') }),
      query: OrganizationQuery,
      answer: { status: 200, description: 'The delivery record.', schema: DeliveryEvent },
    },
    handle(context) {
      const event = context.world.deliveries.get(context.organizationId, context.params.id!);
      if (!event) throw problems.notFound('delivery event', context.params.id!);
      return jsonResponse(200, event);
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/events/:id/redeliver',
    operation: 'control.events.redeliver',
    access: control,
    document: {
      tags: ['Delivery events'],
      summary: 'Redeliver an event',
      description: 'One more attempt with the same payload (spec §6), as the dashboard does; answers once that attempt has ended.',
      params: z.object({ id: idOf('evt') }),
      body: { schema: OrganizationOnlyRequest, required: false },
      answer: { status: 200, description: 'The delivery record with the new attempt.', schema: DeliveryEvent },
    },
    async handle(context) {
      checkBody(context, (value) => parseWith(OrganizationOnlyRequest, value), context.json() ?? {});
      const event = await context.world.deliveries.redeliver(context.organizationId, context.params.id!);
      if (!event) throw problems.notFound('delivery event', context.params.id!);
      return jsonResponse(200, event);
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/faults',
    operation: 'control.faults.list',
    access: control,
    document: {
      tags: ['Faults'],
      summary: 'The faults injected',
      description: 'Each with its id and how many times it applied.',
      answer: { status: 200, description: 'The faults.', schema: FaultList },
    },
    handle: (context) => jsonResponse(200, { faults: context.world.faults.list() }),
  },
  {
    method: 'POST',
    pattern: '/_mock/faults',
    operation: 'control.faults.add',
    access: control,
    document: {
      tags: ['Faults'],
      summary: 'Inject a fault',
      description:
        'Duplicate or delayed deliveries, or errors and latency on matching API requests (never on the control API), for a share of them drawn from the seed, or for the next `count` requests.',
      body: { schema: FaultRequest, example: { kind: 'api_error', code: 'service_unavailable', count: 1 } },
      answer: { status: 201, description: 'The fault, with its id.', schema: ActiveFault },
    },
    handle(context) {
      const body = checkBody(context, (value) => parseWith(FaultRequest, value), context.json());
      return jsonResponse(201, context.world.faults.add(body));
    },
  },
  {
    method: 'DELETE',
    pattern: '/_mock/faults',
    operation: 'control.faults.clear',
    access: control,
    document: {
      tags: ['Faults'],
      summary: 'Remove every fault',
      description: 'And start the random draws over.',
      answer: { status: 204, description: 'No fault is left.' },
    },
    handle(context) {
      context.world.faults.clear();
      return { status: 204, headers: {}, body: '' };
    },
  },
] as const satisfies readonly Route[];

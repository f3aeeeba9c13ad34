import { mockParts } from '../../src/mock/create-mock';
import { DEFAULT_CLOCK_START } from '../../src/clock';
import type { EngineEvent } from '../../src/engine';
import { createMock, type Mock, type MockOptions } from '../../src/http';
import {
  BvsMockConfig,
  DEFAULT_ORGANIZATION,
  DeliveryEvent,
  EVENT_SCHEMAS,
  formatIssues,
  parseWith,
  type EntityValidationCreateFields,
  type EventType,
} from '../../src/schemas';
import type { ReceivedWebhook } from '../../src/testing';

/** A mock with every event the engine emitted collected, in emission order. */
export interface DeliveryHarness {
  mock: Mock;
  emitted: EngineEvent[];
  /** Creates a validation in the default organization and returns its id (throws if refused). */
  create(tin: string, extra?: Partial<EntityValidationCreateFields>, scenarioName?: string): string;
  /**
   * Plays everything as `bvs-mock play` does: drains, supplies input to every run
   * waiting in missing_input_data, and drains again until no run waits.
   */
  playToEnd(): Promise<void>;
  /** `mock.core.handle` with a JSON body over a simulated TLS connection; the control API needs no credential. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: <T = unknown>() => T; text: string }>;
  /** Delivery records, as `GET /_mock/events` lists them. */
  records(): DeliveryEvent[];
}

/**
 * Starts a mock (instant clock and the fixed start instant unless told otherwise, so two harnesses
 * give the same ids) for a delivery test and records what its engine emits. The test disposes it
 * (`harness.mock.dispose()`).
 */
export function startDeliveryHarness(options: MockOptions = {}): DeliveryHarness {
  const mock = createMock({ clock: 'instant', startTime: DEFAULT_CLOCK_START, ...options });
  const emitted: EngineEvent[] = [];
  mockParts(mock).world.engine.subscribe((event) => emitted.push(event));
  const organizationId = mockParts(mock).world.registry.defaultId;
  return {
    mock,
    emitted,
    create(tin, extra = {}, scenarioName) {
      const result = mockParts(mock).world.engine.createValidation({ organizationId, request: { tin, country: 'CL', ...extra }, scenarioName });
      if (!result.ok) throw new Error(`create ${tin}: ${result.message}`);
      return result.value.id;
    },
    async playToEnd() {
      for (;;) {
        await mock.drain();
        const state = mockParts(mock).world.engine.organization(organizationId);
        const waiting = [...state.runs.values()].filter((run) => run.waitingForInput !== null);
        if (waiting.length === 0) return;
        for (const run of waiting) {
          const supplied = mockParts(mock).world.engine.supplyInput(organizationId, run.id);
          if (!supplied.ok) throw new Error(`supply input to ${run.id}: ${supplied.message}`);
        }
      }
    },
    async call(method, path, body, headers = {}) {
      const [pathname, search = ''] = path.split('?');
      const raw = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
      const response = await mock.core.handle({
        method,
        path: pathname!,
        query: new URLSearchParams(search),
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: raw,
        secure: true,
      });
      const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
      return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
    },
    records: () => mockParts(mock).world.deliveries.list(),
  };
}

/** The `type` of a received webhook body. */
export function typeOf(hook: ReceivedWebhook): EventType {
  return (hook.body as { type: EventType }).type;
}

/** Throws with the JSON paths when a received body is not the envelope of its type (spec §6 Envelope). */
export function expectEnvelope(hook: ReceivedWebhook): void {
  const type = typeOf(hook);
  const schema = EVENT_SCHEMAS[type];
  if (!schema) throw new Error(`received an unknown event type ${String(type)}`);
  const parsed = parseWith(schema, hook.body);
  if (!parsed.ok) throw new Error(`${type} does not match its envelope schema:\n${formatIssues(parsed.issues)}`);
}

/** Throws with the JSON paths when a record is not a `DeliveryEvent`. */
export function expectDeliveryRecord(record: unknown): DeliveryEvent {
  const parsed = parseWith(DeliveryEvent, record);
  if (!parsed.ok) throw new Error(`not a DeliveryEvent:\n${formatIssues(parsed.issues)}`);
  return parsed.value;
}

/** Seconds between consecutive timestamps. */
export function gapsInSeconds(timestamps: readonly string[]): number[] {
  return timestamps.slice(1).map((at, index) => (Date.parse(at) - Date.parse(timestamps[index]!)) / 1000);
}

/** The retry intervals of docs/fidelity.md row 27, in seconds: 15 s, doubling, capped at one hour. */
export function expectedBackoffSeconds(retries: number): number[] {
  return Array.from({ length: retries }, (_unused, index) => Math.min(15 * 2 ** index, 3600));
}

/**
 * The default organization (its API key `test_key_default` and legacy token
 * `tok_legacy_default`) with the endpoints given, each defaulting to every
 * event and `auth_type: none`.
 */
export function defaultOrganizationWith(endpoints: Array<Record<string, unknown>>, settings: Record<string, unknown> = {}): BvsMockConfig {
  return BvsMockConfig.parse({
    organizations: [
      {
        ...DEFAULT_ORGANIZATION,
        settings: { ...DEFAULT_ORGANIZATION.settings, ...settings },
        webhook_endpoints: endpoints.map((endpoint, index) => ({ name: `endpoint-${index + 1}`, ...endpoint })),
      },
    ],
  });
}

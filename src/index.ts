/**
 * bvs-mock: a high-fidelity mock of the Business Validation Service and a
 * contract test harness for its clients.
 *
 * @example In-process, with msw intercepting fetch (no ports):
 * import { createMock, createHandlers } from 'bvs-mock';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMock({ clock: 'manual' });
 * const server = setupServer(...createHandlers(mock.core, 'https://bvs.test'));
 * server.listen();
 * // ... your client calls https://bvs.test/api/v2/... with `Bearer test_key_default`
 * mock.clock.runAll(); // play every scheduled step of every validation
 */
export {
  createMock,
  startServer,
  createHandlers,
  bvsMockMiddleware,
  type Mock,
  type MockOptions,
  type ServerOptions,
  type StartedServer,
  type TokenClock,
} from './http';
export { validatePayload, SCHEMA_CATALOG, SCHEMA_NAMES, type PayloadCheck } from './contract';
export { buildOpenApiDocument, documentToJson, documentToYaml } from './openapi';
export { loadConfig, ConfigError } from './config';
export { ScenarioLibrary, generateScenario } from './engine/scenarios';
export type { EngineEvent, EventSink } from './engine';
export * as schemas from './schemas';
export { startWebhookReceiver, type WebhookReceiver, type ReceivedWebhook } from './testing/webhook-receiver';

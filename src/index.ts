/**
 * bvs-mock: a high-fidelity mock of the Business Validation Service and a
 * contract test harness for its clients.
 *
 * Tests use `bvs-mock/testing` (startBvsMock, the control client, the webhook receiver, the assertions);
 * msw users who run their own msw server take bvs-mock's handlers from `bvs-mock/msw`; the zod schemas
 * are `bvs-mock/schemas`. Each name is exported from one entry point only.
 *
 * @example A real server on a free port, embedded:
 * import { startServer } from 'bvs-mock';
 *
 * const server = await startServer({ port: 0, clock: 'instant' });
 * // ... your client calls `${server.url}/api/v2/...` with `Bearer test_key_default`, trusting server.certificate
 * await server.close();
 */
export { createMock, startServer, bvsMockMiddleware, type Mock, type MockOptions, type ServerOptions, type StartedServer, type TokenClock } from './http';
export { validatePayload, SCHEMA_CATALOG, SCHEMA_NAMES, type PayloadCheck } from './contract';
export { buildOpenApiDocument, documentToJson, documentToYaml } from './openapi';
export { loadConfig, ConfigError } from './config';
export { ScenarioLibrary, generateScenario } from './engine/scenarios';
export type { EngineEvent, EventSink } from './engine';

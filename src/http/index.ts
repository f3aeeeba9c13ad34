/** The API server: the transport-free core and the three ways to reach it. */
export { createMock, type Mock, type MockOptions } from '../mock/create-mock';
export type { TokenClock } from '../world/access-tokens';
export { startServer, type ServerOptions, type StartedServer } from './start-server';
export { DEFAULT_CONNECTION_TIMEOUTS, DEFAULT_MAX_CONNECTIONS, type ConnectionTimeouts } from './node-server';
export { createHandlers } from './msw-handlers';
export { bvsMockMiddleware, type ConnectMiddleware } from './express-middleware';
export { createApiCore, allRoutes, type ApiCore } from '../api/api-core';
export type { CoreRequest, CoreResponse } from '../api/core-types';

/** The API server: the transport-free core and the node and express ways to reach it (the msw handlers are bvs-mock/msw's: only that entry point reaches msw's types). */
export { createMock, mockParts, type Mock, type MockOptions } from '../mock/create-mock';
export type { TokenClock } from '../world/access-tokens';
export { startServer, type ServerOptions, type StartedServer } from './start-server';
export { DEFAULT_MAX_CONNECTIONS, type ConnectionTimeouts } from './node-server';
export { bvsMockMiddleware, type ConnectMiddleware } from './express-middleware';
export { createApiCore, allRoutes, type ApiCore } from '../api/api-core';
export type { CoreRequest, CoreResponse } from '../api/core-types';

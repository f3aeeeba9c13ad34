/**
 * `bvs-mock/msw`: bvs-mock's msw request handlers, for a test suite that runs its own msw server. Apart
 * from the other entry points, so only those who use msw meet msw's types.
 *
 * @example
 * import { createMock } from 'bvs-mock';
 * import { createHandlers } from 'bvs-mock/msw';
 * import { setupServer } from 'msw/node';
 *
 * const mock = createMock({ clock: 'instant', publicUrl: 'https://bvs.test' });
 * const server = setupServer(...createHandlers(mock.core, 'https://bvs.test'));
 * server.listen({ onUnhandledRequest: 'bypass' });
 */
export { createHandlers } from './http/msw-handlers';

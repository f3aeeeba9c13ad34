import type { CoreRequest, CoreResponse } from './core-types';

/** Converts a fetch `Request` (what msw hands to handlers) into a core request. */
export async function fromFetchRequest(request: Request): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: CoreRequest['headers'] = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const body = request.method === 'GET' || request.method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await request.arrayBuffer());
  return { method: request.method, path: url.pathname, query: url.searchParams, headers, body, secure: url.protocol === 'https:' };
}

/** Converts a core response into a fetch `Response`. */
export function toFetchResponse(response: CoreResponse): Response {
  // A reset connection is a network error for the client's fetch.
  if (response.resetConnection) return Response.error();
  const body = typeof response.body === 'string' ? response.body : Buffer.from(response.body);
  return new Response(response.status === 204 ? null : body, { status: response.status, headers: response.headers });
}

import type { CoreRequest, CoreResponse, ResponseStream } from '../api/core-types';

/**
 * Converts a fetch `Request` (what msw hands to handlers) into a core request. A fetch request carries no
 * `Host` header: it is the URL's, as a server would have received it. `inProcess`: msw intercepted it in
 * this process (`CoreRequest.inProcess`), rather than an express server receiving it.
 */
export async function fromFetchRequest(request: Request, { inProcess = false }: { inProcess?: boolean } = {}): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: CoreRequest['headers'] = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  headers.host ??= url.host;
  const body = request.method === 'GET' || request.method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await request.arrayBuffer());
  return { method: request.method, path: url.pathname, query: url.searchParams, headers, body, secure: url.protocol === 'https:', inProcess };
}

/**
 * Converts a core response into a fetch `Response`. `signal` is the request's: when the client gives up on a
 * streamed answer, the stream is let go (msw does not cancel a mocked body whose reader went away).
 */
export function toFetchResponse(response: CoreResponse, signal?: AbortSignal): Response {
  // A reset connection is a network error for the client's fetch.
  if (response.resetConnection) return Response.error();
  const body = typeof response.body === 'string' ? response.body : Buffer.from(response.body);
  if (response.stream !== undefined) return new Response(streamBody(body, response.stream, signal), { status: response.status, headers: response.headers });
  return new Response(response.status === 204 ? null : body, { status: response.status, headers: response.headers });
}

/** What a streamed answer may hold for its reader: node's default highWaterMark for a response. */
const STREAM_BUFFER_BYTES = 16 * 1024;

/** A streamed answer as a fetch body: it ends when the stream ends it, and a reader that cancels lets the stream go. */
function streamBody(first: string | Buffer, stream: ResponseStream, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let close: (() => void) | undefined;
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        signal?.addEventListener(
          'abort',
          () => {
            if (!open) return;
            open = false;
            close?.();
            controller.error(signal.reason);
          },
          { once: true },
        );
        if (first.length > 0) controller.enqueue(typeof first === 'string' ? encoder.encode(first) : first);
        close = stream.open(
          (chunk) => {
            if (!open) return false;
            controller.enqueue(encoder.encode(chunk));
            return (controller.desiredSize ?? 1) > 0;
          },
          () => {
            if (!open) return;
            open = false;
            close?.();
            controller.close();
          },
        );
      },
      cancel() {
        open = false;
        close?.();
      },
    },
    // A reader counts as too slow, and is let go, past the 16 KiB node's own server buffers for one; with the
    // default strategy (one chunk), a reader between two reads would be let go at the first notice.
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BUFFER_BYTES }),
  );
}

/**
 * The transport-free request and response of bvs-mock's API: the node server,
 * msw's interceptor and express all convert to and from these, so one core
 * answers every way of reaching it (docs/decisions/0002-one-core-three-transports.md).
 */
export interface CoreRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The raw body; empty when there is none. */
  body: Buffer;
  /** Whether the request arrived over TLS. */
  secure: boolean;
  /**
   * The request never crossed a network: msw intercepted it in the process (`createHandlers`). No name led a
   * browser to it, so the Host check does not apply (docs/fidelity.md row 104).
   */
  inProcess?: boolean;
}

/** A response: status, headers and a body (JSON text, PDF bytes, or nothing). */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Reset the connection instead of answering (the `api_reset` fault): the transport sends nothing. */
  resetConnection?: boolean;
  /** A body that goes on after the head (server-sent events): the transport writes `body` first, then what this writes. */
  stream?: ResponseStream;
}

/**
 * The open end of a streamed answer (`GET /_mock/stream`). The transport calls `open` once the head is
 * sent and calls the function it returns when the client goes away or the server stops, so nothing is
 * left subscribed; `end` lets the stream close itself.
 */
export interface ResponseStream {
  /** `write` answers false when the client reads too slowly to take more now. */
  open(write: (chunk: string) => boolean, end: () => void): () => void;
}

/** The content type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answers a JSON body. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(body) };
}

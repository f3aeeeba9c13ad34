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
}

/** A response: status, headers and a body (JSON text, PDF bytes, or nothing). */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Reset the connection instead of answering (the `api_reset` fault): the transport sends nothing. */
  resetConnection?: boolean;
}

/** The content type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answers a JSON body. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(body) };
}

/**
 * One request and its answer as they went through `bvs-mock proxy`: a plain record, what the drift check reads and
 * what a recording keeps. Credentials are never in it: the request's `Authorization` keeps its scheme alone, cookies
 * and any header naming a key, a secret or a token are left out, and a form body loses its `client_secret`.
 */
export interface Exchange {
  /** The upstream's `X-Request-Id`, or the proxy's own number (`prx_000001`). */
  requestId: string;
  /** The operationId of the API operation the path names, or null (a path the document does not have). */
  operation: string | null;
  method: string;
  /** The path, without the query. */
  path: string;
  status: number;
  /** The request's headers, names in lower case, credentials left out. */
  requestHeaders: Record<string, string>;
  /** The request's body as text (UTF-8), credentials masked; empty when there was none. */
  requestBody: string;
  /** The answer's headers, names in lower case. */
  answerHeaders: Record<string, string>;
  /** The answer's body as text (UTF-8), or `(N bytes of TYPE)` for a body that is not text. */
  answerBody: string;
  /** Real times: when the request came (ISO 8601), and how long the upstream took to answer it, in milliseconds. */
  startedAt: string;
  durationMs: number;
}

/** Headers that carry credentials: never kept. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|key|secret|token|signature/i;

/** Form and JSON fields that carry credentials: masked. */
const CREDENTIAL_FIELD = /secret|password|token|api_key|assertion/i;

/** The mask written where a credential was. */
export const MASKED = '(masked)';

/** Headers whose scheme is kept (`Basic (masked)`): how a client authenticated is no secret, and `drift` reads it. */
const SCHEME_HEADER = /^(authorization|proxy-authorization)$/i;

/** The headers without credentials: an `Authorization` keeps its scheme alone (`Bearer (masked)`), the others are left out. */
export function withoutCredentials(headers: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const scheme = SCHEME_HEADER.test(name) ? /^([A-Za-z][\w!#$%&'*+.^`|~-]*)(\s|$)/.exec(value.trim())?.[1] : undefined;
    if (scheme !== undefined) kept[name.toLowerCase()] = `${scheme} ${MASKED}`;
    else if (!CREDENTIAL_HEADER.test(name)) kept[name.toLowerCase()] = value;
  }
  return kept;
}

/** A request body with the values of credential fields masked (a form's `client_secret`, a JSON `secret`). */
export function maskedBody(body: string, contentType: string | undefined): string {
  if (body.length === 0) return body;
  if (/^application\/x-www-form-urlencoded/i.test(contentType ?? '')) {
    const form = new URLSearchParams(body);
    for (const name of [...form.keys()]) if (CREDENTIAL_FIELD.test(name)) form.set(name, MASKED);
    return form.toString();
  }
  try {
    return JSON.stringify(maskValue(JSON.parse(body)));
  } catch {
    return body;
  }
}

/** A JSON value with the values of credential fields masked, at any depth. */
export function maskValue(value: unknown, key = ''): unknown {
  if (CREDENTIAL_FIELD.test(key) && value !== null && typeof value !== 'object') return MASKED;
  if (Array.isArray(value)) return value.map((item) => maskValue(item));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskValue(item, name)]));
  return value;
}

import type { Mock } from '../../src/mock/create-mock';

/** A request to a mock's API core in process, with no transport (what the tests of worlds and sessions send). */
export interface CoreCall {
  method: string;
  /** The path, with its query if any. */
  path: string;
  /** A JSON body. */
  body?: unknown;
  /** A form body (the token endpoint). */
  form?: string;
  /** `Authorization: Bearer <bearer>`; default none. */
  bearer?: string;
}

/** The answer to a {@link CoreCall}: its status, its request id and its body as text. */
export interface CoreAnswer {
  status: number;
  requestId: string | undefined;
  text: string;
}

/** Sends one request to `mock.core` as a client over TLS would (in process: no Host check). */
export async function callCore(mock: Mock, { method, path, body, form, bearer }: CoreCall): Promise<CoreAnswer> {
  const [bare, query] = path.split('?');
  const headers: Record<string, string> = {};
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  else if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await mock.core.handle({
    method,
    path: bare!,
    query: new URLSearchParams(query ?? ''),
    headers,
    body: Buffer.from(form ?? (body === undefined ? '' : JSON.stringify(body))),
    secure: true,
    inProcess: true,
  });
  return { status: answer.status, requestId: answer.headers['x-request-id'], text: Buffer.from(answer.body).toString('utf8') };
}

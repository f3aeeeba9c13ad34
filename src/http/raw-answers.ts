import { randomInt } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { problems, type ApiProblem } from '../api/api-problem';
import type { CoreResponse } from '../api/core-types';

/** Node's own answer to a request that did not arrive in time (there is no 408 code in the error shape). */
const REQUEST_TIMEOUT = Buffer.from(`HTTP/1.1 408 ${STATUS_CODES[408]}\r\nConnection: close\r\n\r\n`);

/** A request node's HTTP parser could not read, or one that did not arrive in time: answered on the socket itself, or the socket closed. */
export function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // HTTP parse errors (HPE_*) get an answer in the error shape; a late request gets node's own 408
  // and no wait for a client that is too slow to read it; TLS failures and resets just close.
  if (error.code?.startsWith('HPE_'))
    socket.end(
      rawResponse(
        refused(
          problems.invalidRequest(
            `The request could not be read as HTTP/1.1 (${error.code}). Send a standard method (GET, POST, PATCH, DELETE) and well-formed headers.`,
          ),
        ),
      ),
    );
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.end(REQUEST_TIMEOUT, () => socket.destroy());
  else socket.destroy();
}

/** Node drops a CONNECT request nobody listens for without a word, and leaves its socket to the listener. */
export function onConnectMethod(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const answer = refused(
    problems.invalidRequest(
      'CONNECT is not supported: bvs-mock is an API server, not a proxy. Send the request itself (GET, POST, PATCH, DELETE) to this address.',
    ),
  );
  socket.end(rawResponse(answer), () => socket.destroy());
}

/** The answer to a request the core did not answer, in the error shape, with an id of its own, closing the connection. */
export function refused(problem: ApiProblem): CoreResponse {
  // Requests the core did not answer (unparsable HTTP, no Host, a failure) get ids of their own, random so
  // that no count is shared between the servers of one process.
  const requestId = `req_conn_${randomInt(100_000_000_000, 999_999_999_999)}`;
  const answer = problem.toResponse(requestId);
  answer.headers['x-request-id'] = requestId;
  answer.headers.connection = 'close';
  return answer;
}

/** A response written straight onto a socket that has no HTTP server any more. */
function rawResponse(answer: CoreResponse): Buffer {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body);
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`];
  for (const [name, value] of Object.entries({ ...answer.headers, 'content-length': String(body.length), connection: 'close' })) head.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

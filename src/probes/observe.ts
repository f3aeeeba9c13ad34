import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { BlockList } from 'node:net';
import { refusingLookup } from '../delivery/http-post';
import { ProcessedState, parseWith } from '../schemas';

/** A receiver's side-effect probe: what its test build processed, read once per call (docs/receiver-probe.md). */
export type Observe = () => Promise<ProcessedState>;

/** Why a side-effect probe could not be read; its message says what came instead, never the answer's body. */
export class ObserveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ObserveError';
  }
}

/** The largest probe answer read: a test build's processed events, not a production log. */
const MAX_OBSERVE_BYTES = 5 * 1024 * 1024;

/** Options of {@link observeAt}. */
export interface ObserveAtOptions {
  timeoutMs: number;
  insecureTls: boolean;
  /** Addresses never connected to (the control API's reach, docs/fidelity.md row 106). */
  refusedAddresses?: BlockList;
}

/**
 * The side-effect probe at `url`: a GET that must answer 200 with a {@link ProcessedState} as JSON. A probe without an
 * HTTP answer is `unreachable` whatever the reason, as a receiver's probe delivery is (docs/fidelity.md row 106).
 */
export function observeAt(url: string, options: ObserveAtOptions): Observe {
  return async () => {
    const { status, text } = await get(url, options);
    if (status !== 200) throw new ObserveError(`the side-effect probe ${url} answered ${status}; it must answer 200 with what the receiver processed`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ObserveError(`the side-effect probe ${url} answered something that is not JSON; it must answer a ProcessedState (docs/receiver-probe.md)`);
    }
    return checkedState(value, `the side-effect probe ${url}`);
  };
}

/** The state a probe gave, checked against {@link ProcessedState}: a wrong shape names its first problem and where. */
export function checkedState(value: unknown, what: string): ProcessedState {
  const parsed = parseWith(ProcessedState, value);
  if (parsed.ok) return parsed.value;
  const first = parsed.issues[0]!;
  throw new ObserveError(`${what} answered a body that is not a ProcessedState (docs/receiver-probe.md): ${first.path}: ${first.message}`);
}

function get(url: string, options: ObserveAtOptions): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const unreachable = () => reject(new ObserveError(`the side-effect probe ${url} gave no HTTP answer (unreachable)`));
    const request = send(
      target,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'x-bvs-mock-probe': 'observe' },
        timeout: options.timeoutMs,
        ...(target.protocol === 'https:' ? { rejectUnauthorized: !options.insecureTls } : {}),
        ...(options.refusedAddresses === undefined ? {} : { lookup: refusingLookup(options.refusedAddresses) }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_OBSERVE_BYTES) {
            request.destroy();
            reject(new ObserveError(`the side-effect probe ${url} answered more than ${MAX_OBSERVE_BYTES} bytes`));
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', unreachable);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', unreachable);
    request.end();
  });
}

import type { Agent } from 'undici';

/**
 * The fetch options that make node's fetch trust `ca` (PEM) for HTTPS, as `ControlConnection.fetchOptions`:
 * an undici `Agent({ connect: { ca } })` as `dispatcher`. Node's fetch is undici's, but takes no CA of its own.
 * Without `ca`, none: the global fetch as it is (in-process, msw answers it).
 */
export function trustingFetchOptions(ca: string | undefined): { dispatcher: Agent } | undefined {
  if (ca === undefined) return undefined;
  // Loaded only when a certificate is to be trusted: in-process and plain-HTTP use never load undici.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Agent: UndiciAgent } = require('undici') as typeof import('undici');
  // Idle connections are kept a moment for the next call, and never hold a test process open (undici unrefs idle sockets).
  return { dispatcher: new UndiciAgent({ connect: { ca } }) };
}

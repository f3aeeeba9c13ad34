import { createControlClient, type ControlClient } from '../client/control-client';
import { currentTestName } from './current-test';
import { trustingFetchOptions } from './trusting-dispatcher';

/** How to reach a bvs-mock and prove the right to its control API. */
export interface ControlClientOptions {
  /** Its base URL, like `https://127.0.0.1:4010` or `https://bvs:4010` in a CI network. */
  url: string;
  /** The control token it was started with (`--control-token`), if it is locked. */
  controlToken?: string;
  /** The certificate (PEM) to trust for HTTPS: the one bvs-mock serves (`startBvsMock` gives it as `certificate`) or the one it was started with (`--tls-cert`). */
  ca?: string;
  /** The organization control calls act on, unless a call names another; default: bvs-mock's default organization. */
  organizationId?: string;
  /** The session control calls act on (`/_mock/sessions/{id}/…`); default: the default session. */
  session?: string;
  /**
   * The label of each call (header `x-bvs-mock-label`), asked at each call; default: the current jest or vitest
   * test's name (none outside a test). `false`: no label.
   */
  label?: (() => string | undefined) | false;
}

/**
 * The typed control client (src/client) for these options in node: HTTPS trusting `ca` through an undici
 * dispatcher. The organization is left to each call, which puts it in the query or the body as before.
 */
export function typedClientFor(options: ControlClientOptions): ControlClient {
  const https = new URL(options.url).protocol === 'https:';
  return createControlClient({
    url: options.url,
    controlToken: options.controlToken,
    session: options.session,
    label: options.label === false ? undefined : (options.label ?? currentTestName),
    fetchOptions: https ? trustingFetchOptions(options.ca) : undefined,
  });
}

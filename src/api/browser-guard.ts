import { problems } from './api-problem';
import { AllowedHosts, hostnameOf, type AllowedHostsOption } from './allowed-hosts';
import type { CoreRequest } from './core-types';
import type { Route } from './router';

/** Options of {@link BrowserGuard}. */
export interface BrowserGuardOptions {
  /** `--allowed-hosts` (with the listening host and `--tls-hostnames` names from `startServer`), or `'all'`. */
  allowedHosts?: AllowedHostsOption;
  /** `--public-url`: its host is allowed, and a page served under it counts as bvs-mock's own. */
  publicUrl?: string;
}

/** `Sec-Fetch-Site` values of a request a page of another site made (same-site: another port of localhost). */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/**
 * What keeps web pages in the tester's browser from driving bvs-mock, in every transport (the core calls it):
 * the Host check, against DNS rebinding (docs/fidelity.md row 104), and the Origin check of the control API,
 * against a page of another origin posting to it (no-cors requests need no preflight; row 103).
 */
export class BrowserGuard {
  private readonly hosts: AllowedHosts;
  private readonly publicOrigin: string | null;

  constructor(options: BrowserGuardOptions = {}) {
    const publicUrl = options.publicUrl === undefined ? null : parsePublicUrl(options.publicUrl);
    this.publicOrigin = publicUrl?.origin ?? null;
    const given = options.allowedHosts ?? [];
    this.hosts = new AllowedHosts(given === 'all' || publicUrl === null ? given : [...given, publicUrl.hostname.replace(/^\[|\]$/g, '')]);
  }

  /**
   * Refuses a request whose Host names a host bvs-mock does not know (421 `host_not_allowed`). Not in-process:
   * a request msw intercepts never crossed a network, so no name led a browser to it.
   */
  checkHost(request: CoreRequest): void {
    if (request.inProcess === true) return;
    const host = request.headers.host;
    if (!this.hosts.allows(host)) throw problems.hostNotAllowed(host ?? '', hostnameOf(host ?? ''));
  }

  /**
   * Refuses a request a page of another origin made (403 `forbidden_origin`): an `Origin` other than the
   * server's own (the scheme and host the request reached it by, or the `--public-url`), or `Sec-Fetch-Site:
   * cross-site` or `same-site` on anything but a page opened by a link. `Origin: null` (a page whose referrer
   * policy is `no-referrer`, a sandboxed frame, a file) passes only where the browser says `Sec-Fetch-Site:
   * same-origin`. Requests without either header (tests, scripts, curl) pass.
   */
  checkOrigin(request: CoreRequest): void {
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site']?.toLowerCase();
    if (origin !== undefined && origin !== 'null') {
      if (!this.isOwn(origin, request)) throw problems.foreignOrigin(origin, this.ownOrigin(request));
      return;
    }
    const opened = request.headers['sec-fetch-mode']?.toLowerCase() === 'navigate' && (request.method === 'GET' || request.method === 'HEAD');
    if (site !== undefined && OTHER_SITES.has(site) && !opened) throw problems.foreignSite(site, this.ownOrigin(request));
    if (origin === 'null' && site !== 'same-origin') throw problems.foreignOrigin(origin, this.ownOrigin(request));
  }

  /** Same host and port as the request reached (the scheme may differ behind a TLS-terminating proxy), or the public URL's origin. */
  private isOwn(origin: string, request: CoreRequest): boolean {
    if (origin === this.publicOrigin) return true;
    const host = request.headers.host;
    if (host === undefined) return false;
    try {
      const given = new URL(origin);
      // The Host read with the Origin's scheme, so default ports compare equal (`https://x` and `x:443`).
      return given.origin === origin.toLowerCase().replace(/\/$/, '') && new URL(`${given.protocol}//${host}`).host === given.host;
    } catch {
      return false;
    }
  }

  private ownOrigin(request: CoreRequest): string {
    return `${request.secure ? 'https' : 'http'}://${request.headers.host ?? 'localhost'}`;
  }
}

function parsePublicUrl(url: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new Error(
      `bvs-mock: the public URL (--public-url, BVS_MOCK_PUBLIC_URL) ${JSON.stringify(url)} is not a URL; give one like https://bvs.example.com:4010`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Whether a route is held to the Origin check: every control operation, reads too (no page of another origin
 * has business with them), and anything under `/_mock` that acts (the recipient page's form). Reads under
 * `/_mock` made to be opened anywhere stay open: the dashboard's page and assets, the recipient page, and
 * pre-signed files, which another site may link to or embed as the service's own URLs.
 */
export function checksOrigin(route: Route): boolean {
  return route.access.kind === 'control' || (route.method !== 'GET' && route.pattern.startsWith('/_mock/'));
}

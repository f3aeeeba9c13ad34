import { isIP } from 'node:net';

/** The `allowedHosts` option (`--allowed-hosts`): more host names to answer for, or `'all'` to answer for any. */
export type AllowedHostsOption = readonly string[] | 'all';

/** Values of `--allowed-hosts` that turn the Host check off. */
const EVERY_HOST = new Set(['all', '*']);

/** What a Host header may hold: a name, an IPv4 or bracketed IPv6 address, and a port. Anything else is no host. */
const HOST_HEADER = /^[A-Za-z0-9._\-[\]:]{1,300}$/;

/**
 * The name in a Host header, lower case, without port, brackets or a final dot (`Bvs.:4010` is `bvs`,
 * `[::1]:4010` is `::1`), as the WHATWG URL parser reads it (so `0x7f000001` is `127.0.0.1`); null when the
 * header holds no host.
 */
export function hostnameOf(header: string): string | null {
  if (!HOST_HEADER.test(header)) return null;
  try {
    const name = new URL(`http://${header}`).hostname;
    return name.replace(/^\[|\]$/g, '').replace(/\.$/, '') || null;
  } catch {
    return null;
  }
}

/**
 * Names no web page can point at bvs-mock through public DNS, so DNS rebinding cannot use them
 * (docs/fidelity.md row 104): IP literals (rebinding needs a name), `localhost` and `*.localhost` (RFC 6761
 * §6.3: resolved to loopback, never sent to DNS by browsers), single-label names (`bvs`, `bvs-mock`: CI and
 * container service names; ICANN allows no record at a top-level name, so no public name has one label),
 * and names under `.internal` (reserved by ICANN in 2024 for private networks, never delegated:
 * `host.docker.internal`, `host.containers.internal`, a cloud's own names).
 */
function allowedByDefault(hostname: string): boolean {
  if (isIP(hostname) !== 0) return true;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (!hostname.includes('.')) return true;
  return hostname.endsWith('.internal');
}

/**
 * The host names bvs-mock answers for, beside those {@link allowedByDefault}: `--allowed-hosts`, to which
 * `startServer` adds the listening host and the `--tls-hostnames` names, and `createMock` the `--public-url`
 * host (docs/fidelity.md row 104). A name given with a leading dot (`.corp.example`, or `*.corp.example`)
 * allows that domain and every name under it.
 */
export class AllowedHosts {
  private readonly every: boolean;
  private readonly names = new Set<string>();
  private readonly domains: string[] = [];

  /**
   * @param option names, `.domain`s, IP addresses, or `'all'` (`all` or `*` in the list too) to answer any Host
   * @throws Error naming the value when one is not a host name, IP address or `.domain`
   */
  constructor(option: AllowedHostsOption = []) {
    this.every = option === 'all' || option.some((name) => EVERY_HOST.has(name.trim().toLowerCase()));
    if (this.every) return;
    for (const given of option as readonly string[]) {
      const trimmed = given.trim().replace(/^\*\./, '.');
      const domain = trimmed.startsWith('.') && trimmed.length > 1;
      const bare = domain ? trimmed.slice(1) : trimmed;
      // A bare IPv6 address (`::1`) is a host once bracketed; a port or a path is not part of a name.
      const name = hostnameOf(isIP(bare) === 6 ? `[${bare}]` : bare);
      if (name === null || (isIP(bare) === 0 && bare.includes(':')))
        throw new Error(
          `bvs-mock: allowed host ${JSON.stringify(given)} (--allowed-hosts, BVS_MOCK_ALLOWED_HOSTS) is not a host name; give names without scheme or port, like mock.example.com, .example.com for a domain and every name under it, or all to answer any Host`,
        );
      if (domain) this.domains.push(name);
      else this.names.add(name);
    }
  }

  /** Whether a request whose Host header is `header` may be answered. No Host or an empty one (HTTP/1.0, RFC 9112 §3.2) passes: a browser always sends one. */
  allows(header: string | undefined): boolean {
    if (this.every || header === undefined || header === '') return true;
    const hostname = hostnameOf(header);
    if (hostname === null) return false;
    if (allowedByDefault(hostname) || this.names.has(hostname)) return true;
    return this.domains.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`));
  }
}

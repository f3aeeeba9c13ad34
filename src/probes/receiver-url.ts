import { BlockList, isIP } from 'node:net';

/**
 * Who asked for a receiver check, and so what it may reach (docs/fidelity.md row 106): `tester`, the command line
 * and `checkReceiver` of bvs-mock/testing, run by the tester with the tester's own reach; `control`, the control
 * API, which anyone who reaches bvs-mock's port may call unless it is locked with `--control-token`.
 */
export type ReceiverReach = 'tester' | 'control';

/** The URL a receiver check probes, or why it probes none. */
export type ReceiverUrl =
  { ok: true; url: string } | { ok: false; code: 'not_a_url' | 'not_http' | 'credentials_in_url' | 'metadata_address'; message: string };

/**
 * A receiver URL a check refuses to probe (not a URL, not HTTP(S), with credentials, or, for the control API, a
 * metadata address), before anything is sent: `code` says which, the message what to do instead.
 */
export class ReceiverUrlError extends Error {
  readonly code: Extract<ReceiverUrl, { ok: false }>['code'];

  constructor(refusal: Extract<ReceiverUrl, { ok: false }>) {
    super(refusal.message);
    this.name = 'ReceiverUrlError';
    this.code = refusal.code;
  }
}

/**
 * The addresses the control API's check never connects to: link-local IPv4 and IPv6 (IPv4-mapped forms included)
 * and AWS's IPv6 metadata address, where cloud metadata services answer (169.254.169.254, fd00:ec2::254) and no
 * webhook receiver does. A new list each call: a BlockList can be added to.
 */
export function metadataAddresses(): BlockList {
  const list = new BlockList();
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addSubnet('fe80::', 10, 'ipv6');
  list.addAddress('fd00:ec2::254', 'ipv6');
  return list;
}

/**
 * The receiver's URL as the check probes it, read as WHATWG URL reads it (so `http://0x7f000001/` and
 * `http://127.1/` are `http://127.0.0.1/`, and the report names that address), or why it is refused: not a URL, not
 * HTTP(S), credentials before the host (the check sends the endpoint's own Authorization and never a URL's), and,
 * for the control API, a link-local or cloud metadata address ({@link metadataAddresses}). Messages never repeat the credentials.
 *
 * @example
 * receiverUrl('http://127.1:3000/hooks', 'tester') // { ok: true, url: 'http://127.0.0.1:3000/hooks' }
 * receiverUrl('http://u:p@127.0.0.1/hooks', 'tester') // { ok: false, code: 'credentials_in_url', message: '…' }
 */
export function receiverUrl(given: string, reach: ReceiverReach): ReceiverUrl {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { ok: false, code: 'not_a_url', message: `"${given}" is not a URL; give the receiver's address, like http://127.0.0.1:3000/hooks` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, code: 'not_http', message: `${url.href} must be http:// or https:// (spec §6: endpoint URLs are HTTP(S))` };
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    const instead =
      reach === 'tester'
        ? 'give the receiver its Authorization with --auth secret:<secret> (or legacy:<token>) instead'
        : "set the endpoint's URL without them, and its auth_type to secret for an Authorization header";
    return {
      ok: false,
      code: 'credentials_in_url',
      message: `the receiver URL ${url.href} carries credentials (user:password@) before its host; a receiver check sends the endpoint's own Authorization and never credentials from a URL, so remove them and ${instead}`,
    };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (reach === 'control' && family !== 0 && metadataAddresses().check(host, family === 6 ? 'ipv6' : 'ipv4'))
    return {
      ok: false,
      code: 'metadata_address',
      message: `the receiver URL ${url.href} names a link-local or cloud metadata address, where cloud metadata services answer and no webhook receiver does, so the control API does not probe it (docs/fidelity.md row 106); check a receiver there from the command line: bvs-mock check-receiver ${url.href}`,
    };
  return { ok: true, url: url.href };
}

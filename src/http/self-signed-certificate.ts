import { generate } from 'selfsigned';

/** A certificate and its key, in PEM. */
export interface TlsMaterial {
  cert: string;
  key: string;
}

/**
 * Makes the self-signed certificate `bvs-mock serve` uses unless one is given
 * (docs/design.md, Command line): valid for localhost, 127.0.0.1 and ::1, the
 * listening host and the names given (`--tls-hostnames`, the public URL's host), for
 * 30 days. Clients trust it by fetching it from `GET /_mock/certificate`.
 */
export async function selfSignedCertificate(hosts: readonly string[] = []): Promise<TlsMaterial> {
  const names = [...new Set(['localhost', ...hosts.filter((host) => !/^[\d.:]+$/.test(host) && host !== '0.0.0.0')])];
  const ips = [...new Set(['127.0.0.1', '::1', ...hosts.filter((host) => /^[\d.:]+$/.test(host) && host !== '0.0.0.0' && host !== '::')])];
  const pems = await generate([{ name: 'commonName', value: 'bvs-mock' }], {
    keyType: 'ec',
    curve: 'P-256',
    // Certificates are checked against the wall clock by TLS clients, not the simulated one.
    notAfterDate: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...names.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

import { z } from '../../schemas';
import { problems } from '../api-problem';
import type { Route } from '../router';

/**
 * `GET /_mock/certificate`: the certificate bvs-mock presents, as PEM, so a client in another container
 * trusts it in one step (`curl --cacert`, `NODE_EXTRA_CA_CERTS`). Open under `--control-token`: it is public.
 */
export const certificateRoute = {
  method: 'GET',
  pattern: '/_mock/certificate',
  operation: 'control.certificate',
  access: { kind: 'control' },
  pure: true,
  document: {
    tags: ['Health'],
    summary: "The server's certificate, as PEM",
    description:
      "The certificate bvs-mock presents over HTTPS (the self-signed one, valid for localhost, 127.0.0.1, the listening host, the public URL's host and `--tls-hostnames`; or the one given with `--tls-cert`). Save it and trust it: `curl --cacert`, `NODE_EXTRA_CA_CERTS`, Python `verify=`, a Java trust store. Open even when the control API is locked.",
    answer: { status: 200, description: 'The certificate.', schema: z.string(), contentType: 'application/x-pem-file' },
    errors: ['not_found'],
  },
  handle(context) {
    const certificate = context.server.certificate;
    if (certificate === null) throw problems.noCertificate();
    return { status: 200, headers: { 'content-type': 'application/x-pem-file' }, body: certificate };
  },
} as const satisfies Route;

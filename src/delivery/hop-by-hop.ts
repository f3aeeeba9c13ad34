/**
 * Headers a relay of HTTP requests never passes on: those of one connection (RFC 9110 §7.6.1), and `host` and
 * `content-length`, which node sets itself for the request it makes. Shared by `bvs-mock proxy` and `bvs-mock listen`.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

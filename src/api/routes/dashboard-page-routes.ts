import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root';
import { problems } from '../api-problem';
import type { CoreResponse } from '../core-types';
import type { Route } from '../router';

/** Where `npm run build` writes the dashboard (scripts/build-dashboard.js), beside package.json in the package and the image. */
const DASHBOARD_DIR = join(PACKAGE_ROOT, 'dashboard-dist');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The page talks only to this server; the control API it calls is reached with the token the user types in
 * (docs/fidelity.md, the dashboard rows), never with a cookie, so no other site can act through it.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Reads the page's files, each once, on first request: the assets never change while bvs-mock runs. */
function assetReader(): (name: string) => Buffer | undefined {
  const cache = new Map<string, Buffer>();
  return (name) => {
    const cached = cache.get(name);
    if (cached !== undefined) return cached;
    const path = join(DASHBOARD_DIR, name);
    if (!existsSync(path)) return undefined;
    const data = readFileSync(path);
    cache.set(name, data);
    return data;
  };
}

const missing = (what: string) => problems.dashboardMissing(what);

/**
 * The page, and its assets: names with a content hash, so a browser keeps them for a year and a new build is
 * fetched anew. Each API core makes its own, with its own cache of the files.
 */
export function dashboardPageRoutes(): Route[] {
  const readAsset = assetReader();
  return [
    {
      method: 'GET',
      pattern: '/_mock',
      operation: 'control.dashboard.redirect',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle: (): CoreResponse => ({ status: 308, headers: { location: '/_mock/' }, body: '' }),
    },
    {
      method: 'GET',
      pattern: '/_mock/',
      operation: 'control.dashboard',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle(): CoreResponse {
        const page = readAsset('index.html');
        if (page === undefined) throw missing('page (index.html)');
        return { status: 200, headers: { 'content-type': CONTENT_TYPES['.html']!, 'cache-control': 'no-cache', ...PAGE_HEADERS }, body: page };
      },
    },
    {
      method: 'GET',
      pattern: '/_mock/assets/:file',
      operation: 'control.dashboard.asset',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle(context): CoreResponse {
        const file = context.params.file!;
        const type = CONTENT_TYPES[extname(file)];
        // Names are the build's own (letters, digits, dots, dashes): nothing else can name a file, so nothing can climb out of the folder.
        const data = /^[\w.-]+$/.test(file) && !file.startsWith('.') && type !== undefined ? readAsset(join('assets', file)) : undefined;
        if (data === undefined) throw missing(`asset ${JSON.stringify(file)}`);
        return { status: 200, headers: { 'content-type': type!, 'cache-control': 'public, max-age=31536000, immutable', ...PAGE_HEADERS }, body: data };
      },
    },
  ];
}

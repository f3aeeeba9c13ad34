import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root';
import { ApiProblem, problems } from '../api-problem';
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
 * The tool that serves the dashboard: `bvs-mock serve` (its whole control API), `bvs-mock proxy` (the drift it found)
 * or `bvs-mock listen` (the deliveries it relayed and its findings). The page says it on its root element
 * (`<div id="app" data-tool="...">`), and the app shows that tool's views only.
 */
export type DashboardTool = 'serve' | 'proxy' | 'listen';

/** Where the built page names its tool (dashboard/index.html). */
const TOOL_PLACEHOLDER = '%TOOL%';

/** The page and its assets, as one tool serves them: each answer a GET of the dashboard's paths gets. */
interface DashboardFiles {
  page(): CoreResponse;
  asset(file: string): CoreResponse;
}

/** Reads the page and its assets for `tool`, each file once. Refusals throw {@link problems.dashboardMissing}. */
function dashboardFiles(tool: DashboardTool): DashboardFiles {
  const readAsset = assetReader();
  let page: Buffer | undefined;
  return {
    page() {
      if (page === undefined) {
        const built = readAsset('index.html');
        if (built === undefined) throw missing('page (index.html)');
        page = Buffer.from(built.toString('utf8').replace(TOOL_PLACEHOLDER, tool));
      }
      return { status: 200, headers: { 'content-type': CONTENT_TYPES['.html']!, 'cache-control': 'no-cache', ...PAGE_HEADERS }, body: page };
    },
    asset(file) {
      const type = CONTENT_TYPES[extname(file)];
      // Names are the build's own (letters, digits, dots, dashes): nothing else can name a file, so nothing can climb out of the folder.
      const data = /^[\w.-]+$/.test(file) && !file.startsWith('.') && type !== undefined ? readAsset(join('assets', file)) : undefined;
      if (data === undefined) throw missing(`asset ${JSON.stringify(file)}`);
      return { status: 200, headers: { 'content-type': type!, 'cache-control': 'public, max-age=31536000, immutable', ...PAGE_HEADERS }, body: data };
    },
  };
}

const REDIRECT: CoreResponse = { status: 308, headers: { location: '/_mock/' }, body: '' };

/**
 * The page, and its assets: names with a content hash, so a browser keeps them for a year and a new build is
 * fetched anew. Each API core makes its own, with its own cache of the files.
 */
export function dashboardPageRoutes(): Route[] {
  const files = dashboardFiles('serve');
  return [
    {
      method: 'GET',
      pattern: '/_mock',
      operation: 'control.dashboard.redirect',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle: (): CoreResponse => ({ ...REDIRECT, headers: { ...REDIRECT.headers } }),
    },
    {
      method: 'GET',
      pattern: '/_mock/',
      operation: 'control.dashboard',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle: () => files.page(),
    },
    {
      method: 'GET',
      pattern: '/_mock/assets/:file',
      operation: 'control.dashboard.asset',
      access: { kind: 'public' },
      forPeople: true,
      pure: true,
      handle: (context) => files.asset(context.params.file!),
    },
  ];
}

/** The path of a dashboard asset, `/_mock/assets/<file>`. */
const ASSET_PATH = /^\/_mock\/assets\/([^/]+)$/;

/**
 * The dashboard of a tool without bvs-mock's route table (`bvs-mock proxy`, `bvs-mock listen`), at the same paths as
 * `bvs-mock serve` serves it: the answer to a request of its paths (GET or HEAD), or null for any other request,
 * which is the tool's own.
 */
export function toolDashboard(tool: Exclude<DashboardTool, 'serve'>): (request: { method: string; path: string }) => CoreResponse | null {
  const files = dashboardFiles(tool);
  return ({ method, path }) => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    const asset = ASSET_PATH.exec(path)?.[1];
    if (path !== '/_mock' && path !== '/_mock/' && asset === undefined) return null;
    try {
      if (path === '/_mock') return { ...REDIRECT, headers: { ...REDIRECT.headers } };
      if (asset !== undefined) {
        let file: string;
        try {
          file = decodeURIComponent(asset);
        } catch {
          throw missing(`asset ${JSON.stringify(asset)}`);
        }
        return files.asset(file);
      }
      return files.page();
    } catch (error) {
      if (error instanceof ApiProblem) return error.toResponse(`${tool}_dashboard`);
      throw error;
    }
  };
}

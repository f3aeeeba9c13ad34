/** What bvs-mock uses of msw, from the one bundle of it (vendor/msw.js, written by scripts/bundle-msw.js). */
export interface VendoredMsw {
  http: (typeof import('msw'))['http'];
  setupServer: (typeof import('msw/node'))['setupServer'];
}

/**
 * msw bundled as CommonJS with its ESM-only dependencies, loaded on first use: the in-process transport
 * (`startBvsMock({ transport: 'in-process' })`) runs in a stock jest project, whose module loader cannot read ESM
 * from node_modules. Importing bvs-mock never loads it (docs/decisions/0003-msw-once.md).
 */
export function vendoredMsw(): VendoredMsw {
  try {
    // The same path from src/http (tests) and dist/http (the package): vendor/ sits beside both. node's module
    // cache loads it once.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('../../vendor/msw.js') as VendoredMsw;
  } catch (error) {
    throw new Error('bvs-mock: vendor/msw.js is missing or broken; run `npm run build` in bvs-mock (it bundles msw for in-process use)', { cause: error });
  }
}

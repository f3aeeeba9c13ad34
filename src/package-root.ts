import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder of bvs-mock's package.json: the nearest one above this module named bvs-mock. The same from
 * src/ (tests), dist/ (the package) and the one-file bundle of the image, so files shipped beside the code
 * (package.json, scenarios/) are found from any of them.
 */
export const PACKAGE_ROOT: string = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'bvs-mock') return dir;
    if (dirname(dir) === dir) throw new Error(`bvs-mock: no package.json of bvs-mock above ${__dirname}`);
  }
})();

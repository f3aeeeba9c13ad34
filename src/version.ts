import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './package-root';

/**
 * The version of bvs-mock, read once from its package.json, so no other file writes it down.
 */
export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The service and API version bvs-mock imitates (spec §9: the API lives under /api/v2). */
export const IMITATES = { service: 'Business Validation Service', api: '/api/v2' } as const;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version of bvs-mock, read once from its package.json (one directory above
 * both `src/` and `dist/`), so no other file writes it down.
 */
export const VERSION: string = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;

/** The service and API version bvs-mock imitates (spec §9: the API lives under /api/v2). */
export const IMITATES = { service: 'Business Validation Service', api: '/api/v2' } as const;

#!/usr/bin/env node
'use strict';
/**
 * The package's public surface as API reports (api/*.api.md, one per entry point of package.json's
 * `exports`), made by api-extractor from the built declarations in dist/. `npm run api:report` writes
 * them after a change that is meant; test/package/api-report.test.ts fails when dist/ differs from them,
 * so a change to what users can import is a visible diff in review.
 *
 * Usage: node scripts/api-report.js [--check]   (after `npm run build`)
 */
const fs = require('node:fs');
const path = require('node:path');
const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');

const API_DIR = path.join(__dirname, '..', 'api');

/** Runs api-extractor for every entry point; returns the names whose report differs (check) or was rewritten. */
function apiReports({ check }) {
  const changed = [];
  for (const file of fs.readdirSync(API_DIR).filter((name) => name.endsWith('.json') && !name.startsWith('api-extractor'))) {
    const config = ExtractorConfig.loadFileAndPrepare(path.join(API_DIR, file));
    const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: (message) => (message.handled = true) });
    if (result.apiReportChanged) changed.push(path.basename(file, '.json'));
    if (result.errorCount > 0 && !result.apiReportChanged) throw new Error(`api-extractor failed on ${file} with ${result.errorCount} errors`);
  }
  return changed;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  const changed = apiReports({ check });
  if (check && changed.length > 0) {
    process.stderr.write(`The public surface changed: ${changed.join(', ')}. If that is meant, run npm run api:report and commit api/.\n`);
    process.exit(1);
  }
  process.stdout.write(changed.length === 0 ? 'API reports unchanged.\n' : `API reports written: ${changed.join(', ')}\n`);
}

module.exports = { apiReports };

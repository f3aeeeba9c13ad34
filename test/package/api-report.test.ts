// The package's public surface is written down in api/*.api.md (one report per entry point of package.json's
// `exports`, made by api-extractor from dist/'s declarations). A change to what users can import, on purpose
// or not, fails here until the reports are rewritten (`npm run api:report`) and the diff is committed.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiReports } = require('../../scripts/api-report.js') as { apiReports(options: { check: boolean }): string[] };

it('the public surface of every entry point is the one api/ records: a change to it is a diff in api/*.api.md', () => {
  expect(apiReports({ check: true })).toEqual([]);
});

// Which tier each slower test file belongs to (jest.config.js, CONTRIBUTING.md "Tests in tiers"); every
// other test file is a unit test. A file goes by what it starts, not by its folder.

/** The built command line as a child process, Chromium, Prism, the README's shell blocks in bash. */
const SYSTEM = [
  'test/cli/check-receiver.test.ts',
  'test/cli/control-token-cli.test.ts',
  'test/cli/large-scenario-file.test.ts',
  'test/cli/listen-cli.test.ts',
  'test/cli/nightly-drift-job.test.ts',
  'test/cli/non-regular-input-files.test.ts',
  'test/cli/parallel-sessions.test.ts',
  'test/cli/proxy-cli.test.ts',
  'test/cli/readings-cli.test.ts',
  'test/cli/record-cli.test.ts',
  'test/cli/start-time.test.ts',
  'test/cli/state-file.test.ts',
  'test/cli/validate-hostile-input.test.ts',
  'test/cli/version.test.ts',
  'test/config/api-keys.test.ts',
  'test/contract/prism-proxy.test.ts',
  'test/dashboard/attempt-headers.test.ts',
  'test/dashboard/cross-site-page.test.ts',
  'test/dashboard/dashboard.test.ts',
  'test/dashboard/readme-walkthrough.test.ts',
  'test/dashboard/recipient-page.test.ts',
  'test/dashboard/screenshots.test.ts',
  'test/dashboard/sessions.test.ts',
  'test/dashboard/tool-views.test.ts',
  'test/delivery/play-command.test.ts',
  'test/http/cli-serve.test.ts',
  'test/http/large-scenario-upload-freeze.test.ts',
  'test/http/unknown-fields-freeze.test.ts',
  'test/package/readme-shell.test.ts',
  'test/testing/vitest-matchers.test.ts',
];
/** `npm pack` and installs of the tarball; the Dockerfile's steps, which run `npm ci` and the build. */
const PACKAGE = [
  'test/package/api-report.test.ts',
  'test/package/ci-jest-global-setup.test.ts',
  'test/package/consumers.test.ts',
  'test/package/example-client.test.ts',
  'test/package/readme-snippets.test.ts',
  'test/docker/dockerfile.test.ts',
];
/** podman: the image built and run. */
const CONTAINER = ['test/docker/container.test.ts', 'test/docker/ci-recipes.test.ts', 'test/docker/parallel-sessions.test.ts'];

module.exports = { SYSTEM, PACKAGE, CONTAINER };

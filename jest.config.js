/**
 * jest runs the TypeScript sources through ts-jest (CommonJS). msw's CommonJS build
 * loads a few ESM-only packages, so those are transformed too (docs/decisions/0001-commonjs-and-jest.md).
 *
 * The tests run in four tiers, one jest project each (CONTRIBUTING.md "Tests in tiers"), chosen by what a
 * test file starts:
 * - unit: everything in this process (the core, the in-process and node transports, receivers of its own);
 *   `npm test` runs it after the type check, lint and format check.
 * - system: the built command line as a child process, Chromium, Prism, the README's shell blocks in bash
 *   (`npm run test:system`).
 * - package: `npm pack` and installs of the tarball, and the Dockerfile's steps with their `npm ci`
 *   (`npm run test:package`).
 * - container: podman builds and runs the image (`npm run test:container`).
 * `npm run test:all` runs them in that order. `npx jest FILE` runs a file in its own tier.
 * A file not listed in test/support/tiers.js is a unit test; test/tiers.test.ts fails when a unit test
 * starts a process.
 */
const { availableParallelism } = require('node:os');
const { SYSTEM, PACKAGE, CONTAINER } = require('./test/support/tiers');

const paths = (files) => files.map((file) => `<rootDir>/${file}`);
/** A jest path pattern (a regular expression) that matches exactly these files. */
const exactly = (files) => files.map((file) => `<rootDir>/${file.replaceAll('.', '\\.')}$`);

/** What every tier shares. */
const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft)/)', '<rootDir>/vendor/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // Builds what the tier's tests use once, before any worker starts (test/support/build-once.js).
  globalSetup: '<rootDir>/test/support/build-once.js',
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  // Two workers even on two cores (jest's default there is one): many tests spend seconds waiting on
  // sockets and real timeouts (hung receivers, connection timeouts), which the other worker fills.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      ...base,
      displayName: 'unit',
      roots: ['<rootDir>/test', '<rootDir>/src'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...exactly([...SYSTEM, ...PACKAGE, ...CONTAINER])],
    },
    { ...base, displayName: 'system', testMatch: paths(SYSTEM) },
    { ...base, displayName: 'package', testMatch: paths(PACKAGE) },
    { ...base, displayName: 'container', testMatch: paths(CONTAINER) },
  ],
};

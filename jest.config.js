/**
 * jest runs the TypeScript sources through ts-jest (CommonJS). msw's CommonJS build
 * loads a few ESM-only packages, so those are transformed too (docs/decisions/0001-commonjs-and-jest.md).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft)/)', '<rootDir>/vendor/'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};

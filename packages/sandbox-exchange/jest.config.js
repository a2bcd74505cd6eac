const path = require('node:path');

// Every suite runs in UTC so that the candles' buckets are deterministic.
process.env.TZ = 'UTC';

const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

const common = {
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  // The e2e suites start the exchange on real ports.
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'sandbox-unit',
      rootDir: path.join(__dirname, 'src'),
      testRegex: '\\.spec\\.ts$',
    },
    {
      ...common,
      displayName: 'sandbox-e2e',
      rootDir: path.join(__dirname, 'test'),
      testRegex: '\\.e2e-spec\\.ts$',
    },
  ],
};

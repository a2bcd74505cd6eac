// On an older Node.js one line and exit 1, instead of hundreds of failed tests (`JSON.rawJSON`).
require('./scripts/check-node.js');

const path = require('node:path');
const sandbox = require('./packages/sandbox-exchange/jest.config.js');

// Every suite runs in UTC so that date arithmetic (24-hour windows, candles) is deterministic.
process.env.TZ = 'UTC';

const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

// Node loads these ESM-only dependencies with require(); Jest's module system cannot, so it compiles them.
const ESM_ONLY = ['content-disposition'];

const transform = {
  '^.+\\.ts$': ['@swc/jest', swc],
  [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest', swc],
};

const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The gateway's suites run the sandbox from its sources, so that no build of it is needed first.
  moduleNameMapper: { '^sandbox-exchange$': path.join(__dirname, 'packages/sandbox-exchange/src/index.ts') },
};

/** @type {import('jest').Config} */
module.exports = {
  // Most e2e suites spend their time waiting on servers, processes and timers: twelve of the longest
  // used one core between three workers. A third worker on two cores fills that waiting; a fourth
  // (374 s against 428 s unloaded) starved the chart suites' sandbox start-ups beside a busy core.
  maxWorkers: 3,
  // Node.js keeps the contexts of the test files a worker ran alive, with all they loaded: an e2e
  // worker grew to 1.7 GB and then took longer to exit than Jest waits (500 ms) on a loaded machine.
  // Recycled past this size, a worker stays small enough to exit in time.
  workerIdleMemoryLimit: '512MB',
  // Integration suites start real servers; a global option, so it cannot live in the e2e project.
  testTimeout: 30000,
  // The longest suites first, also on a fresh clone, so that the workers finish together.
  testSequencer: path.join(__dirname, 'scripts/slowest-first-sequencer.js'),
  projects: [
    { ...common, displayName: 'unit', rootDir: 'src', testRegex: '\\.spec\\.ts$' },
    {
      ...common,
      displayName: 'e2e',
      rootDir: 'test',
      testRegex: '\\.e2e-spec\\.ts$',
    },
    ...sandbox.projects,
  ],
};

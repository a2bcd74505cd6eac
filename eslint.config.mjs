import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/**
 * What each folder of src/ may import of the project. Imports run against the data flow
 * (upstream → ingest → store → api): api and ingest import store, store and upstream import market,
 * market imports nothing. An entry with a path allows that one module, not its whole folder.
 */
const LAYERS = {
  market: {
    mayImport: [],
    why: 'src/market is the pure domain (no Nest, no I/O): it imports nothing of the project; the layers over it import it.',
  },
  config: {
    mayImport: [],
    why: 'src/config is imported by every layer but market, so it imports none of them.',
  },
  logging: {
    mayImport: ['config'],
    why: 'src/logging is imported by every layer but market; of the project it imports only config.',
  },
  lifecycle: {
    mayImport: ['config', 'logging'],
    why: 'src/lifecycle (listening, draining, shutdown) imports only config and logging; the start uses it.',
  },
  store: {
    mayImport: ['market', 'config', 'logging'],
    why: 'src/store sits over market: it imports market, config and logging; ingest, api, upstream and health import it.',
  },
  upstream: {
    mayImport: ['market', 'store', 'config', 'logging'],
    why: "src/upstream (the exchange's clients) imports market, store (the REST request budget is shared in Redis), config and logging; ingest imports it.",
  },
  health: {
    mayImport: ['store', 'config', 'logging'],
    why: 'src/health reports readiness and metrics: it imports store, config and logging; api and ingest import it.',
  },
  scheduler: {
    mayImport: ['store', 'upstream/reconnect-backoff', 'config', 'logging'],
    why: "src/scheduler runs ingest's jobs on Redis: it imports store, config, logging and of upstream only the reconnect backoff it shares with the clients; ingest imports it.",
  },
  ingest: {
    mayImport: ['market', 'upstream', 'store', 'scheduler', 'health', 'config', 'logging'],
    why: 'src/ingest carries the data from upstream into store: it imports upstream, store, market and the supporting layers, never api.',
  },
  api: {
    mayImport: ['market', 'store', 'health', 'config', 'logging'],
    why: 'src/api serves what ingest stored: it imports store, market, health, config and logging, never ingest or upstream.',
  },
  sandbox: {
    mayImport: ['market', 'upstream/exact-json', 'config', 'lifecycle'],
    why: "src/sandbox, the simulated exchange, will become a package of its own: of the gateway it imports only market, upstream's exact JSON, config and lifecycle.",
  },
};

/** The root files that may import the sandbox: main.ts runs it in-process, data-files.ts checks its files. */
const SANDBOX_STARTERS = ['src/main.ts', 'src/data-files.ts'];

const SANDBOX_MESSAGE =
  'src/sandbox will become a package of its own: only main.ts, which starts it in-process, and data-files.ts, which checks its files at boot, import it.';
const TEST_MESSAGE =
  'src/ does not import test/: a helper that unit specs share with the e2e suites lives in a testing/ folder of src/.';
const ROOT_MESSAGE = 'The files at the root of src/ compose the layers; no layer imports them.';

/** Deeper than any folder of src/ (three levels today): a file below it would go unchecked. */
const MAX_DEPTH = 6;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The folders a layer must not import, as one regex alternative (a folder, or a folder but its allowed modules). */
function forbidden(layer) {
  const { mayImport } = LAYERS[layer];
  return Object.keys(LAYERS)
    .filter((folder) => folder !== layer && folder !== 'sandbox' && !mayImport.includes(folder))
    .map((folder) => {
      const modules = mayImport
        .filter((path) => path.startsWith(`${folder}/`))
        .map((path) => path.slice(folder.length + 1));
      return modules.length === 0
        ? escape(folder)
        : `${escape(folder)}(?!/(?:${modules.map(escape).join('|')})$)`;
    })
    .join('|');
}

/**
 * Relative imports say where they lead only with the importing file's depth: from src/api/views/
 * `../../store` is src/store, while `../market` from src/sandbox/gateway/ is src/sandbox/market.
 * So each layer gets one block per depth, matching exactly the `../` that reach src/.
 */
function layerBlocks(layer) {
  return Array.from({ length: MAX_DEPTH }, (_, index) => {
    const depth = index + 1;
    const toSrc = `^(?:\\.\\./){${depth}}`;
    const patterns = [
      { regex: `${toSrc}(?:${forbidden(layer)})(?:/|$)`, message: LAYERS[layer].why },
      { regex: `${toSrc}(?!\\.)[^/]+$`, message: ROOT_MESSAGE },
      { regex: `^(?:\\.\\./){${depth + 1}}test(?:/|$)`, message: TEST_MESSAGE },
    ];
    if (layer !== 'sandbox') patterns.push({ regex: `${toSrc}sandbox(?:/|$)`, message: SANDBOX_MESSAGE });
    return {
      files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
}

const rootBlocks = [
  {
    files: ['src/*.ts'],
    ignores: SANDBOX_STARTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\./sandbox(?:/|$)', message: SANDBOX_MESSAGE },
            { regex: '^\\.\\./test(?:/|$)', message: TEST_MESSAGE },
          ],
        },
      ],
    },
  },
  {
    files: SANDBOX_STARTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./test(?:/|$)', message: TEST_MESSAGE }] },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'helm/**'] },
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': 'error',
    },
    languageOptions: { parserOptions: { projectService: true } },
  },
  ...Object.keys(LAYERS).flatMap(layerBlocks),
  ...rootBlocks,
);

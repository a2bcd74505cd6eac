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
  recording: {
    mayImport: ['market', 'config', 'logging'],
    why: 'src/recording writes and reads recordings of what the exchange sent and the gateway published: it imports market, config and logging; ingest and the replay commands import it.',
  },
  replay: {
    mayImport: ['market', 'upstream', 'recording', 'config', 'logging'],
    why: "src/replay reads recordings back (book-at, the player): it imports recording, the exchange's decoders in upstream, market, config and logging; of it only the console imports book-at.",
  },
  ingest: {
    mayImport: ['market', 'upstream', 'store', 'scheduler', 'health', 'recording', 'config', 'logging'],
    why: 'src/ingest carries the data from upstream into store (and into a recording): it imports upstream, store, market, recording and the supporting layers, never api.',
  },
  api: {
    mayImport: ['market', 'store', 'health', 'replay/book-at', 'config', 'logging'],
    why: "src/api serves what ingest stored: it imports store, market, health, config and logging, never ingest or upstream; the console asks the process's recordings through replay/book-at.",
  },
  'listing-audit': {
    mayImport: ['market'],
    why: "src/listing-audit reads a listing API from outside, as an aggregator does: of the project it imports only the pure domain in market, never the gateway's layers.",
  },
  'console-page': {
    mayImport: ['api/console/console-schemas', 'api/stream/candle-frame', 'replay/book-at-answer'],
    why: "src/console-page is the pages' browser code, bundled apart from the server: of the server it imports only the types of the bodies it reads (api/console/console-schemas, api/stream/candle-frame, replay/book-at-answer, as `export type`), and reads the gateway only over HTTP.",
  },
};

const PACKAGE_ENTRY_MESSAGE =
  "The sandbox exchange is a package of its own: the gateway imports it as 'sandbox-exchange', its public entry, and nothing below it.";
const PACKAGE_ENTRY_PATTERNS = [
  { regex: '(?:^|/)packages(?:/|$)', message: PACKAGE_ENTRY_MESSAGE },
  { regex: '^sandbox-exchange/', message: PACKAGE_ENTRY_MESSAGE },
];
const SANDBOX_MESSAGE =
  "packages/sandbox-exchange is the oracle the gateway is tested against: it imports nothing of the gateway, whose codecs would hide a mistake both make; the specification's fixtures pin what both speak.";
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
    .filter((folder) => folder !== layer && !mayImport.includes(folder))
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
 * `../../store` is src/store, while `../market` from src/api/views/ would be src/api/market.
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
      ...PACKAGE_ENTRY_PATTERNS,
    ];
    return {
      files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    };
  });
}

const rootBlocks = [
  {
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./test(?:/|$)', message: TEST_MESSAGE }, ...PACKAGE_ENTRY_PATTERNS] },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: PACKAGE_ENTRY_PATTERNS }] },
  },
];

/** One block per depth below the package's src/ and test/: `../` one more time than that leaves the package. */
const sandboxBlocks = Array.from({ length: MAX_DEPTH }, (_, index) => {
  const depth = index + 1;
  return {
    files: ['src', 'test'].map(
      (folder) => `packages/sandbox-exchange/${folder}/${'*/'.repeat(depth - 1)}*.ts`,
    ),
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^(?:\\.\\./){${depth + 1}}`, message: SANDBOX_MESSAGE }] },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'helm/**', 'packages/*/dist/**'] },
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
  ...sandboxBlocks,
);

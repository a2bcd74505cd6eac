import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface LintMessage {
  readonly ruleId: string | null;
  readonly message: string;
}

/**
 * Lints, in one ESLint process (its config is an ES module, which Jest's module system cannot load),
 * a file per probe that imports `source`, as `npm run lint` would if it lay at `file`, which need not
 * exist. The layer rules need no types, so the type-aware parsing is off.
 */
function lintImports(probes: readonly (readonly [string, string])[]): LintMessage[][] {
  const script = `
    const { ESLint } = require('eslint');
    const eslint = new ESLint({
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: { '@typescript-eslint/no-floating-promises': 'off' },
      },
    });
    const probes = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    Promise.all(probes.map(async ([file, source]) => {
      const text = "import * as imported from '" + source + "';\\nexport default imported;\\n";
      const [result] = await eslint.lintText(text, { filePath: require('node:path').resolve(file) });
      return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
    })).then((messages) => process.stdout.write(JSON.stringify(messages)));
  `;
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    input: JSON.stringify(probes),
    encoding: 'utf8',
  });
  return JSON.parse(output) as LintMessage[][];
}

const REJECTED: readonly (readonly [string, string, RegExp])[] = [
  ['src/market/probe.ts', '../store/redis-state-store', /src\/market is the pure domain/],
  ['src/market/probe.ts', '../upstream/gateway/gateway-client', /src\/market is the pure domain/],
  ['src/market/probe.ts', '../config/app-config', /src\/market is the pure domain/],
  ['src/store/probe.ts', '../api/views/market-views', /src\/store sits over market/],
  ['src/upstream/rest/probe.ts', '../../ingest/ingest-jobs', /src\/upstream/],
  ['src/api/views/probe.ts', '../../ingest/ingest-jobs', /never ingest or upstream/],
  ['src/api/views/probe.ts', '../../upstream/rest/rest-client', /never ingest or upstream/],
  ['src/config/probe.ts', '../ingest/catalog/assets-file', /imports none of them/],
  ['src/scheduler/probe.ts', '../upstream/rest/rest-client', /of upstream only the reconnect backoff/],
  ['src/main.ts', '../packages/sandbox-exchange/src/start-sandbox', /its public entry/],
  ['src/api/probe.ts', 'sandbox-exchange/dist/hub/hub-server', /its public entry/],
  ['test/api/probe.ts', '../../packages/sandbox-exchange/src/engine/side', /its public entry/],
  [
    'packages/sandbox-exchange/src/gateway/probe.ts',
    '../../../../src/market/decimal',
    /imports nothing of the gateway/,
  ],
  [
    'packages/sandbox-exchange/test/probe.ts',
    '../../../test/support/truth',
    /imports nothing of the gateway/,
  ],
  ['src/store/probe.ts', '../../test/store/redis-store-under-test', /does not import test\//],
  ['src/ingest/probe.ts', '../app.module', /no layer imports them/],
  ['src/listing-audit/probe.ts', '../api/schema/wire-parts', /only the pure domain in market/],
  ['src/listing-audit/probe.ts', '../config/app-config', /only the pure domain in market/],
  ['src/api/probe.ts', '../listing-audit/run-audit', /never ingest or upstream/],
  ['src/console-page/probe.ts', '../api/console/console-snapshot', /browser code, bundled apart/],
  ['src/console-page/probe.ts', '../market/decimal', /browser code, bundled apart/],
  ['src/api/console/probe.ts', '../../console-page/wire-types', /never ingest or upstream/],
];

const ACCEPTED: readonly (readonly [string, string])[] = [
  ['src/market/probe.ts', './decimal'],
  ['src/store/probe.ts', '../market/trade'],
  ['src/upstream/gateway/probe.ts', '../../market/gateway-records'],
  ['src/ingest/feeds/probe.ts', '../../upstream/gateway/gateway-client'],
  ['src/ingest/feeds/probe.ts', '../../store/state-store'],
  ['src/api/views/probe.ts', '../../store/state-store'],
  ['src/api/views/probe.ts', '../../store/testing/state-store-contract'],
  ['src/scheduler/probe.ts', '../upstream/reconnect-backoff'],
  ['src/listing-audit/probe.ts', '../market/fixed-point'],
  ['src/main.ts', 'sandbox-exchange'],
  ['test/api/probe.ts', 'sandbox-exchange'],
  ['packages/sandbox-exchange/src/gateway/probe.ts', '../market/market-spec'],
  ['packages/sandbox-exchange/test/support/probe.ts', '../../src/wire/exact-json'],
];

describe('the lint rules that hold the layers of src/ and the sandbox package apart', () => {
  let rejected: LintMessage[][];
  let accepted: LintMessage[][];

  beforeAll(() => {
    const messages = lintImports([...REJECTED.map(([file, source]) => [file, source] as const), ...ACCEPTED]);
    rejected = messages.slice(0, REJECTED.length);
    accepted = messages.slice(REJECTED.length);
  }, 60_000);

  it.each(REJECTED.map((probe, at) => [...probe, at] as const))(
    'rejects %s importing %s',
    (_file, _source, why, at) => {
      expect(rejected[at]).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports' })]);
      expect(rejected[at][0].message).toMatch(why);
    },
  );

  it.each(ACCEPTED.map((probe, at) => [...probe, at] as const))(
    'accepts %s importing %s',
    (_file, _source, at) => {
      expect(accepted[at]).toEqual([]);
    },
  );
});

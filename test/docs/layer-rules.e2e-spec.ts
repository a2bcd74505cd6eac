import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintMessage {
  readonly ruleId: string | null;
  readonly message: string;
}

/**
 * Lints a file that imports `source`, as `npm run lint` would if it lay at `file`. The layer rules
 * need no types, so the type-aware parsing is off: the file need not exist, and each run is quick.
 */
function lintImport(file: string, source: string): LintMessage[] {
  const text = `import * as imported from '${source}';\nexport default imported;\n`;
  const args = [ESLINT, '--stdin', '--stdin-filename', file, '--format', 'json'];
  args.push('--parser-options', 'projectService:false');
  args.push('--rule', '@typescript-eslint/no-floating-promises: off');
  let output: string;
  try {
    output = execFileSync(process.execPath, args, { cwd: ROOT, input: text, encoding: 'utf8' });
  } catch (error) {
    // ESLint exits with 1 when it finds errors; the report is on stdout all the same.
    output = (error as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(output) as [{ messages: LintMessage[] }];
  return result.messages;
}

describe('the lint rules that hold the layers of src/ and the sandbox package apart', () => {
  it.each([
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
    ['src/listing-audit/probe.ts', '../api/openapi/schema-parts', /only the pure domain in market/],
    ['src/listing-audit/probe.ts', '../config/app-config', /only the pure domain in market/],
    ['src/api/probe.ts', '../listing-audit/run-audit', /never ingest or upstream/],
    ['src/console-page/probe.ts', '../api/console/console-snapshot', /browser code, bundled apart/],
    ['src/console-page/probe.ts', '../market/decimal', /browser code, bundled apart/],
    ['src/api/console/probe.ts', '../../console-page/wire-types', /never ingest or upstream/],
  ])('rejects %s importing %s', (file, source, why) => {
    const messages = lintImport(file, source);
    expect(messages).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports' })]);
    expect(messages[0].message).toMatch(why);
  });

  it.each([
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
  ])('accepts %s importing %s', (file, source) => {
    expect(lintImport(file, source)).toEqual([]);
  });
});

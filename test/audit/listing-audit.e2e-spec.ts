import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { settle } from '../api/expected-figures';
import { BrokenListingServer, startBrokenListingServer } from '../support/broken-listing-server';
import { startTestStack, TestStack } from '../support/start-test-stack';

const ROOT = join(__dirname, '..', '..');
const COMMAND = join(ROOT, 'dist', 'listing-audit', 'main.js');

interface AuditRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built command (`npm run listing-audit` runs the same file), with a short interval between its polls. */
function audit(baseUrl: string, format: string): Promise<AuditRun> {
  const args = [COMMAND, baseUrl, '--format', format, '--interval', '1', '--timeout', '5'];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

/** `STATUS check` for each check line of the report that did not pass. */
function notPassed(report: string): string[] {
  return report
    .split('\n')
    .filter((line) => /^(FAIL|WARN|SKIP) /.test(line))
    .map((line) => line.split(/\s+/).slice(0, 2).join(' '));
}

describe('npm run listing-audit', () => {
  beforeAll(() => {
    if (!existsSync(COMMAND)) throw new Error(`${COMMAND} is missing: npm run build first`);
  });

  describe('against the gateway fed by the sandbox', () => {
    let stack: TestStack;

    beforeAll(async () => {
      stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' }, redis: false });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // Flow paused and the API serving the sandbox's state: each poll reads settled trades and figures.
      await settle(stack);
    }, 60_000);
    afterAll(() => stack?.close());

    it('passes every check of the listing format', async () => {
      const run = await audit(stack.app.url, 'listing');
      expect(notPassed(run.stdout)).toEqual([]);
      expect(run.stdout).toMatch(/^0 failed, 0 warned, 20 passed, 0 skipped/m);
      expect(run.code).toBe(0);
    });

    it('passes every check of the CoinMarketCap format under /cmc', async () => {
      const run = await audit(`${stack.app.url}/cmc`, 'cmc');
      expect(notPassed(run.stdout)).toEqual([]);
      expect(run.stdout).toMatch(/2 polls 1 s apart/);
      expect(run.code).toBe(0);
    });

    it('passes every check of the CoinGecko format under /coingecko; unpriced pairs left out of the tickers warn', async () => {
      const run = await audit(`${stack.app.url}/coingecko`, 'coingecko');
      expect(notPassed(run.stdout)).toEqual(['WARN market-keys']);
      expect(run.stdout).toMatch(/LTC_BTC: listed in \/pairs but not in \/tickers/);
      expect(run.code).toBe(0);
    });
  });

  describe('against a listing with one of each defect', () => {
    let server: BrokenListingServer;
    let run: AuditRun;

    beforeAll(async () => {
      server = await startBrokenListingServer();
      run = await audit(server.url, 'listing');
    });
    afterAll(() => server?.close());

    it('exits non-zero', () => {
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/aggregators would reject this listing$/m);
    });

    it.each([
      ['decimal-strings', '/summary BTC_USDT.baseVolume: the JSON number 0.3, not a decimal string'],
      ['decimal-strings', '/summary ETH_BTC.low24hr: exponent notation "5e-2"'],
      ['required-fields', '/ticker eth_btc.isFrozen: missing'],
      ['key-case', '/ticker btc_usdt.isFrozen: written "isfrozen", the format names it "isFrozen"'],
      [
        'base-quote-orientation',
        '/ticker btc_usdt: base "Tether", quote "Bitcoin": swapped for the market btc_usdt',
      ],
      ['price-vs-book', '/summary SOL_USDT: last 0.006666'],
      [
        'trade-quote-volume',
        '/trades/sol_usdt[0]: quote volume 2.000, but price 150.00 x base volume 300.00 is 45000',
      ],
      ['volumes-match-trades', '/summary ETH_BTC base volume: 7.0, but the sum of its 1 trade is 1'],
      ['book-fresh', '/orderbook/btc_usdt.timestamp: '],
      ['book-fresh', '/orderbook/btc_usdt Last-Modified: '],
    ])('reports %s with an example: %s', (check, example) => {
      expect(notPassed(run.stdout)).toContain(`FAIL ${check}`);
      const section = run.stdout
        .split(/\n(?=PASS|WARN|FAIL|SKIP)/)
        .find((part) => part.includes(` ${check} `))!;
      expect(section).toContain(example);
    });

    it('fails nothing else', () => {
      expect(notPassed(run.stdout).sort()).toEqual(
        [
          'FAIL base-quote-orientation',
          'FAIL book-fresh',
          'FAIL decimal-strings',
          'FAIL key-case',
          'FAIL price-vs-book',
          'FAIL required-fields',
          'FAIL trade-quote-volume',
          'FAIL volumes-match-trades',
        ].sort(),
      );
    });
  });
});

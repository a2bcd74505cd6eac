import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssetsFileError, assetsFileProblems, parseAssetsFile, readAssetsFile } from './assets-file';

function problemsOf(text: string): readonly string[] {
  try {
    parseAssetsFile(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AssetsFileError);
    return (error as AssetsFileError).problems;
  }
  throw new Error('expected an AssetsFileError');
}

describe('parseAssetsFile', () => {
  it('reads every field, keyed by upper-case symbol, with decimals canonical and exact', () => {
    const assets = parseAssetsFile(
      '{"btc":{"name":" Bitcoin ","can_withdraw":false,"can_deposit":"true","min_withdraw":0.00050,"max_withdraw":"50"},' +
        '"Pepe":{"min_withdraw":"0.000000000000000001","max_withdraw":123456789.123456789012345678}}',
    );
    expect([...assets.entries()]).toEqual([
      [
        'BTC',
        { name: 'Bitcoin', canWithdraw: false, canDeposit: true, minWithdraw: '0.0005', maxWithdraw: '50' },
      ],
      ['PEPE', { minWithdraw: '0.000000000000000001', maxWithdraw: '123456789.123456789012345678' }],
    ]);
  });

  it("reads CoinMarketCap's id as a number or digits, and fees as fractions of 0 to 1", () => {
    const assets = parseAssetsFile(
      '{"BTC":{"unified_cryptoasset_id":1,"maker_fee":0.0010,"taker_fee":"0.002"},' +
        '"USDT":{"unified_cryptoasset_id":"825","maker_fee":"0","taker_fee":1}}',
    );
    expect(assets.get('BTC')).toEqual({ unifiedCryptoassetId: 1, makerFee: '0.001', takerFee: '0.002' });
    expect(assets.get('USDT')).toEqual({ unifiedCryptoassetId: 825, makerFee: '0', takerFee: '1' });
  });

  it('refuses an id that is not a positive integer and a fee that is not a fraction', () => {
    const problems = problemsOf(
      JSON.stringify({
        A: { unified_cryptoasset_id: 0 },
        B: { unified_cryptoasset_id: '1.5' },
        C: { unified_cryptoasset_id: -3 },
        D: { unified_cryptoasset_id: '99999999999999999999' },
        E: { unified_cryptoasset_id: true, maker_fee: '0.1%', taker_fee: 2 },
        F: { maker_fee: '-0.001' },
      }),
    );
    expect(problems).toEqual([
      "A.unified_cryptoasset_id: must be a positive integer (CoinMarketCap's UCID), got 0",
      'B.unified_cryptoasset_id: must be a positive integer (CoinMarketCap\'s UCID), got "1.5"',
      "C.unified_cryptoasset_id: must be a positive integer (CoinMarketCap's UCID), got -3",
      'D.unified_cryptoasset_id: must be a positive integer (CoinMarketCap\'s UCID), got "99999999999999999999"',
      "E.unified_cryptoasset_id: must be a positive integer (CoinMarketCap's UCID), got true",
      'E.maker_fee: must be a non-negative decimal number, got "0.1%"',
      'E.taker_fee: a fee is a fraction of the traded value, 0 to 1 (0.001 is 0.1 %), got 2',
      'F.maker_fee: must be a non-negative decimal number, got "-0.001"',
    ]);
  });

  it('accepts entries with no fields and a minimum above a max_withdraw of 0 (no limit)', () => {
    const assets = parseAssetsFile('{"USDT":{},"ETH":{"min_withdraw":"5","max_withdraw":0}}');
    expect(assets.get('USDT')).toEqual({});
    expect(assets.get('ETH')).toEqual({ minWithdraw: '5', maxWithdraw: '0' });
  });

  it('accepts an empty file object', () => {
    expect(parseAssetsFile('{}').size).toBe(0);
  });

  it('lists every problem of the file in one error', () => {
    const problems = problemsOf(
      JSON.stringify({
        BTC: { name: '', can_withdraw: 1, can_deposit: 'yes', min_withdraw: '-1', max_withdraw: 'lots' },
        btc: { name: 'Bitcoin again' },
        ETH: { name: 'Ether', min_withdraw: '10', max_withdraw: '2', maxWithdraw: '3' },
        'US DT': { name: 'Tether' },
        SOL: 'Solana',
        XRP: { min_withdraw: '1e-3', max_withdraw: null },
      }),
    );
    expect(problems).toEqual([
      'BTC.name: must be non-empty text, got ""',
      'BTC.can_withdraw: must be true or false, got 1',
      'BTC.can_deposit: must be true or false, got "yes"',
      'BTC.min_withdraw: must be a non-negative decimal number, got "-1"',
      'BTC.max_withdraw: must be a non-negative decimal number, got "lots"',
      'btc: the same asset as BTC; give each asset once',
      `ETH.maxWithdraw: unknown field; the fields are name, unified_cryptoasset_id, can_withdraw, can_deposit, min_withdraw, max_withdraw, maker_fee, taker_fee`,
      'ETH: min_withdraw 10 is above max_withdraw 2',
      '"US DT": an asset symbol is letters and digits (also . and -)',
      `SOL: must be an object with name, unified_cryptoasset_id, can_withdraw, can_deposit, min_withdraw, max_withdraw, maker_fee, taker_fee, got "Solana"`,
      'XRP.max_withdraw: must be a non-negative decimal number, got null',
    ]);
  });

  it('rejects text that is not a JSON object keyed by symbol', () => {
    expect(problemsOf('{"BTC":')[0]).toMatch(/^not valid JSON/);
    expect(problemsOf('{"BTC":{"name":"a"},"BTC":{"name":"b"}}')[0]).toMatch(
      /^not valid JSON: Duplicate key 'BTC'/,
    );
    expect(problemsOf('[{"BTC":{}}]')).toEqual([
      expect.stringMatching(/^must be a JSON object keyed by asset symbol/),
    ]);
  });

  it('names the source in the message, one line per problem', () => {
    expect(() => parseAssetsFile('{"a b":{},"C":{"x":1}}', 'ASSETS_FILE assets.json')).toThrow(
      'ASSETS_FILE assets.json is invalid:\n  - "a b": an asset symbol is letters and digits (also . and -)\n  - C.x: unknown field',
    );
  });
});

describe('readAssetsFile', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'assets-file-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('gives no overrides without a file', async () => {
    expect((await readAssetsFile(undefined)).size).toBe(0);
  });

  it('reads and validates a file', async () => {
    const path = join(directory, 'assets.json');
    await writeFile(path, '{"usdt":{"name":"Tether USD","min_withdraw":10}}');
    expect([...(await readAssetsFile(path)).entries()]).toEqual([
      ['USDT', { name: 'Tether USD', minWithdraw: '10' }],
    ]);
    await writeFile(path, '{"usdt":{"name":7}}');
    await expect(readAssetsFile(path)).rejects.toThrow(
      `ASSETS_FILE ${path} is invalid:\n  - usdt.name: must be non-empty text`,
    );
  });

  it('reports a file that cannot be read', async () => {
    const path = join(directory, 'missing.json');
    await expect(readAssetsFile(path)).rejects.toThrow(
      new AssetsFileError(`ASSETS_FILE ${path}`, ['cannot be read: ENOENT']),
    );
  });

  it('accepts the example file shipped beside the reader', async () => {
    const assets = await readAssetsFile(join(__dirname, 'assets.example.json'));
    expect([...assets.keys()]).toEqual(['BTC', 'ETH', 'USDT', 'PEPE']);
    expect(assets.get('BTC')).toEqual({
      name: 'Bitcoin',
      unifiedCryptoassetId: 1,
      canWithdraw: true,
      canDeposit: true,
      minWithdraw: '0.0005',
      maxWithdraw: '50',
      makerFee: '0.001',
      takerFee: '0.002',
    });
    expect(assets.get('PEPE')).toMatchObject({ canWithdraw: false });
  });
});

describe('assetsFileProblems', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'assets-file-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('finds none in a good file, and names a missing, unreadable, broken or invalid one', async () => {
    const good = join(directory, 'good.json');
    const broken = join(directory, 'broken.json');
    const invalid = join(directory, 'invalid.json');
    await writeFile(good, '{"BTC":{"name":"Bitcoin"}}');
    await writeFile(broken, '{"BTC":');
    await writeFile(invalid, '{"BTC":{"name":""},"ETH":{"taker_fee":"5"}}');
    expect(assetsFileProblems(good)).toEqual([]);
    expect(assetsFileProblems(join(directory, 'missing.json'))).toEqual(['cannot be read: ENOENT']);
    expect(assetsFileProblems(directory)).toEqual(['cannot be read: EISDIR']);
    expect(assetsFileProblems(broken)).toEqual([expect.stringMatching(/^not valid JSON/)]);
    expect(assetsFileProblems(invalid)).toEqual([
      'BTC.name: must be non-empty text, got ""',
      'ETH.taker_fee: a fee is a fraction of the traded value, 0 to 1 (0.001 is 0.1 %), got 5',
    ]);
  });
});

describe('parseAssetsFile limits', () => {
  it('rejects a limit whose exponent would expand into hundreds of digits', () => {
    expect(() => parseAssetsFile('{"BTC":{"min_withdraw":1e400}}')).toThrow(
      /BTC.min_withdraw: must be a non-negative decimal/,
    );
    expect(parseAssetsFile('{"BTC":{"max_withdraw":5e2}}').get('BTC')).toEqual({ maxWithdraw: '500' });
  });
});
